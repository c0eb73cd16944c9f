// Limits of the one invoke path seen from outside: timeouts no timer can hold, arguments nested
// too deep, and the log records of job tools and unknown tools.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runAh } from '../helpers/cli.js';
import { connectStdio, type StdioServer } from '../helpers/mcp.js';
import { tempDir } from '../helpers/tmp.js';

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, Record<string, unknown>> };

let server: StdioServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function records(configDir: string): Record<string, unknown>[] {
  const dir = join(configDir, 'logs');
  return readdirSync(dir)
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('invoke limits', () => {
  it('refuses a --default-timeout-ms above 2^31-1 at start-up', async () => {
    for (const argv of [
      ['mcp', 'serve', '--default-timeout-ms', '3000000000'],
      ['mcp', 'service', 'install', '--default-timeout-ms', '3000000000'],
    ]) {
      const r = await runAh(argv);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('[INVALID_RANGE]');
    }
  });

  it('answers a huge timeout_ms and very deep arguments with argument errors, and logs job and unknown tools', async () => {
    const ah = isolatedEnv();
    const dir = tempDir('ah-limits-');
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    server = await connectStdio(['--cwd', dir], { env: ah.env });
    const huge = (await server.client.callTool({
      name: 'ah.file.read',
      arguments: { path: 'a.txt', context: { timeout_ms: 1e15 } },
    })) as Result;
    expect(huge._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'INVALID_CONTEXT' });
    let deep: unknown = 'x';
    for (let i = 0; i < 3500; i += 1) deep = [deep];
    const nested = (await server.client.callTool({ name: 'ah.file.read', arguments: { path: deep } })) as Result;
    expect(nested._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'INVALID_ARGUMENT', domain: 'file' });
    const status = (await server.client.callTool({ name: 'ah.job.status', arguments: { job_id: 'job-none' } })) as Result;
    expect(status._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'JOB_NOT_FOUND', domain: 'job' });
    await expect(server.client.callTool({ name: 'ah.nope.nothing', arguments: {} })).rejects.toThrow(/unknown MCP tool/);
    await server.close();
    server = undefined;
    const logged = records(ah.configDir).filter((r) => r.event === 'command.completed');
    expect(logged.find((r) => r.command === 'job.status')).toMatchObject({ status: 'error', diagnostic: { code: 'JOB_NOT_FOUND' } });
    expect(logged.find((r) => r.command === 'ah.nope.nothing')).toMatchObject({
      status: 'error',
      diagnostic: { code: 'TYPED_COMMAND_NOT_FOUND' },
    });
  });
});
