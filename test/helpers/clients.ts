/** Real agent clients (Claude Code, OpenCode, MCP Inspector) installed under test/clients by .ci/run. */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from './tmp.js';

const root = resolve(import.meta.dirname, '../..');
export const CLIENT_BIN = join(root, 'test', 'clients', 'node_modules', '.bin');
/** The clients need Node 22: the node@22 dev dependency provides it. */
export const NODE22_DIR = join(root, 'node_modules', 'node', 'bin');

export function clientsInstalled(): boolean {
  return existsSync(join(CLIENT_BIN, 'claude')) && existsSync(join(NODE22_DIR, 'node'));
}

/** A private HOME and config tree for one client run. */
export function clientHome(): { home: string; env: NodeJS.ProcessEnv } {
  const home = tempDir('ah-client-');
  const env: NodeJS.ProcessEnv = {
    PATH: `${NODE22_DIR}:${process.env.PATH ?? ''}`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    NO_COLOR: '1',
    AH_CONFIG_DIR: join(home, 'ah-config'),
  };
  for (const dir of ['.claude', '.config/opencode', 'ah-config']) mkdirSync(join(home, dir), { recursive: true });
  return { home, env };
}

export function runClient(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  timeoutMs = 90_000,
): Promise<{ code: number | null; output: string }> {
  return new Promise((done, reject) => {
    const child = spawn(join(CLIENT_BIN, name), args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}
