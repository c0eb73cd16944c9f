// The protocol's own conformance suite against `ah mcp serve --transport http`. Only scenarios in
// baseline.yml (features AIHelper does not offer) may fail; the runner exits 1 on anything else,
// including a baselined scenario that starts passing.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { type HttpServer, startHttpServer } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

const root = resolve(import.meta.dirname, '../..');
const NODE22 = join(root, 'node_modules', 'node', 'bin', 'node');
const RUNNER = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
// The suite's fixture tools, installed as an ordinary external plugin.
const FIXTURES = join(root, 'test', 'fixtures', 'conformance', 'fixtures.mjs');

let server: HttpServer | undefined;
afterEach(async () => {
  await server?.stop();
});

describe('MCP conformance 0.1.16', () => {
  it('passes every scenario outside the baseline', async () => {
    expect(existsSync(NODE22)).toBe(true);
    const ah = isolatedEnv();
    mkdirSync(join(ah.configDir, 'plugins'));
    copyFileSync(FIXTURES, join(ah.configDir, 'plugins', 'conformance.mjs'));
    server = await startHttpServer({ env: ah.env });
    const out = tempDir('ah-conformance-');
    const args = [
      RUNNER,
      'server',
      '--url',
      server.url,
      '--suite',
      'all',
      '-o',
      out,
      '--expected-failures',
      join(import.meta.dirname, 'baseline.yml'),
    ];
    const { code, output } = await new Promise<{ code: number | null; output: string }>((done) => {
      const child = spawn(NODE22, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (c: Buffer) => {
        text += c.toString();
      });
      child.stderr.on('data', (c: Buffer) => {
        text += c.toString();
      });
      child.on('close', (exit) => done({ code: exit, output: text }));
    });
    const summary = /Total: (\d+) passed, (\d+) failed/.exec(output);
    expect(summary, output.slice(-3000)).not.toBeNull();
    expect(output).not.toContain('Unexpected failures');
    expect(output).not.toContain('Stale baseline');
    expect(code, output.slice(-3000)).toBe(0);
  }, 240_000);
});
