// ah on the other Node lines it supports (the suite itself runs on the machine's Node): Node 22
// (the node@22 dev dependency) and Node 24 (installed with the test clients). Each starts the
// CLI, a search, and the MCP server over stdio and over HTTP, driven by the real SDK client.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { AH_BIN, isolatedEnv, runAh } from '../helpers/cli.js';
import { startHttpServer } from '../helpers/http.js';
import { type Need, unavailable } from '../helpers/requires.js';
import { tempDir } from '../helpers/tmp.js';

const root = resolve(import.meta.dirname, '../..');
const LINES = [
  { major: 22, node: join(root, 'node_modules', 'node', 'bin', 'node'), hint: 'npm ci (node@22 is a dev dependency)' },
  {
    major: 24,
    node: join(root, 'test', 'clients', 'node_modules', 'node', 'bin', 'node'),
    hint: 'node scripts/install-test-clients.mjs (npm test runs it)',
  },
];

function need(line: (typeof LINES)[number]): Need {
  return {
    name: `Node ${line.major}`,
    probe: () => {
      if (!existsSync(line.node)) return `${line.node} is missing`;
      const version = spawnSync(line.node, ['--version'], { encoding: 'utf8' }).stdout.trim();
      return version.startsWith(`v${line.major}.`) ? null : `${line.node} is ${version || 'not runnable'}, not Node ${line.major}`;
    },
    hint: line.hint,
  };
}

/** A project with one file to find, and an environment whose compile cache stays in it. */
function fixture() {
  const dir = tempDir();
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const needle = 1;\n');
  const { env } = isolatedEnv({ NODE_COMPILE_CACHE: join(dir, '.compile-cache') });
  return { dir, env: env as Record<string, string> };
}

async function exercise(client: Client, dir: string): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.length).toBeGreaterThan(90);
  const read = await client.callTool({ name: 'ah.file.read', arguments: { path: 'src/a.ts', context: { cwd: dir } } });
  expect(read.isError).toBeFalsy();
  expect(read.structuredContent).toMatchObject({
    command: 'file.read',
    path: 'src/a.ts',
    line_count: 1,
    content: 'export const needle = 1;',
  });
}

for (const line of LINES) {
  const suite = `ah on Node ${line.major}`;
  describe.skipIf(unavailable(suite, need(line)))(suite, () => {
    it('answers the CLI: version and a search', async () => {
      const { dir, env } = fixture();
      const version = await runAh(['--version'], { node: line.node, env, cwd: dir });
      expect(version.stdout).toMatch(/^ah \d+\.\d+\.\d+/);
      const search = await runAh(['--json', 'search', 'text', 'needle'], { node: line.node, env, cwd: dir });
      expect(search.stderr).toBe('');
      expect(search.json()).toMatchObject({ match_count: 1, matches: [{ path: 'src/a.ts', line: 1, column: 14 }] });
    });

    it('serves MCP over stdio', async () => {
      const { dir, env } = fixture();
      const client = new Client({ name: `node-${line.major}`, version: '1' });
      await client.connect(
        new StdioClientTransport({ command: line.node, args: [AH_BIN, 'mcp', 'serve'], env, cwd: dir, stderr: 'ignore' }),
      );
      try {
        await exercise(client, dir);
      } finally {
        await client.close();
      }
    }, 30_000);

    it('serves MCP over HTTP', async () => {
      const { dir, env } = fixture();
      const server = await startHttpServer({ node: line.node, env, cwd: dir });
      try {
        const client = new Client({ name: `node-${line.major}`, version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        try {
          await exercise(client, dir);
        } finally {
          await client.close();
        }
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      } finally {
        await server.stop();
      }
    }, 30_000);
  });
}
