// Real agent clients connect to `ah mcp serve` over stdio and HTTP.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { AH_BIN } from '../helpers/cli.js';
import { clientHome, clientsInstalled, runClient } from '../helpers/clients.js';
import { type HttpServer, startHttpServer } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

const stdioCommand = (cwd: string) => ({ command: process.execPath, args: [AH_BIN, '--cwd', cwd, 'mcp', 'serve'] });

let http: HttpServer | undefined;
afterEach(async () => {
  await http?.stop();
  http = undefined;
});

describe('real MCP clients', () => {
  it('have been installed by .ci/run (test/clients)', () => {
    expect(clientsInstalled()).toBe(true);
  });

  it('Claude Code connects over stdio and over HTTP', async () => {
    const project = tempDir();
    const { env } = clientHome();
    http = await startHttpServer({ env });
    const stdio = stdioCommand(project);
    await runClient('claude', ['mcp', 'add-json', '-s', 'user', 'ah-stdio', JSON.stringify({ type: 'stdio', ...stdio })], env, project);
    await runClient('claude', ['mcp', 'add-json', '-s', 'user', 'ah-http', JSON.stringify({ type: 'http', url: http.url })], env, project);
    const list = await runClient('claude', ['mcp', 'list'], env, project);
    expect(list.output).toMatch(/ah-stdio: .*✔ Connected/);
    expect(list.output).toMatch(/ah-http: .*✔ Connected/);
  }, 120_000);

  it('OpenCode connects to a local and a remote entry', async () => {
    const project = tempDir();
    const { env, home } = clientHome();
    http = await startHttpServer({ env });
    const stdio = stdioCommand(project);
    const config = {
      mcp: {
        'ah-local': { type: 'local', command: [stdio.command, ...stdio.args], enabled: true },
        'ah-remote': { type: 'remote', url: http.url, enabled: true },
      },
    };
    writeFileSync(join(home, '.config', 'opencode', 'opencode.jsonc'), JSON.stringify(config));
    const list = await runClient('opencode', ['mcp', 'list'], env, project);
    expect(list.output).toMatch(/✓ ah-local\s+\S*connected/);
    expect(list.output).toMatch(/✓ ah-remote\s+\S*connected/);
  }, 120_000);

  it('the MCP Inspector CLI calls tools over stdio and HTTP; another client reads its job', async () => {
    const project = tempDir();
    writeFileSync(join(project, 'a.txt'), 'hello\n');
    const { env } = clientHome();
    const stdio = stdioCommand(project);
    const viaStdio = await runClient(
      'mcp-inspector',
      ['--cli', stdio.command, ...stdio.args, '--method', 'tools/call', '--tool-name', 'ah.file.read', '--tool-arg', 'path=a.txt'],
      env,
      project,
    );
    expect(JSON.parse(viaStdio.output.slice(viaStdio.output.indexOf('{')))).toMatchObject({ structuredContent: { content: 'hello' } });

    http = await startHttpServer({ env });
    const started = await runClient(
      'mcp-inspector',
      [
        '--cli',
        http.url,
        '--transport',
        'http',
        '--method',
        'tools/call',
        '--tool-name',
        'ah.job.start',
        '--tool-arg',
        'tool=ah.file.read',
        '--tool-arg',
        `arguments={"path":"a.txt","context":{"cwd":${JSON.stringify(project)}}}`,
      ],
      env,
      project,
    );
    const job = JSON.parse(started.output.slice(started.output.indexOf('{'))) as { structuredContent: { job_id: string } };
    expect(job.structuredContent.job_id).toMatch(/^job-/);
    // A different client, connected at the same time, sees the inspector's job.
    const sdk = new Client({ name: 'other-client', version: '1' });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      let result: Record<string, unknown> | undefined;
      for (let i = 0; i < 100; i += 1) {
        result = (
          (await sdk.callTool({ name: 'ah.job.result', arguments: { job_id: job.structuredContent.job_id } })) as {
            structuredContent: Record<string, unknown>;
          }
        ).structuredContent;
        if (result.ready) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(result).toMatchObject({ ready: true, status: 'succeeded', response: { data: { content: 'hello' } } });
    } finally {
      await sdk.close();
    }
  }, 120_000);
});
