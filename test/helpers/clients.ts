/**
 * Real agent clients (Claude Code, Codex, Gemini CLI, Copilot CLI, OpenCode, MCP Inspector)
 * installed under test/clients by scripts/install-test-clients.mjs (run by `npm test`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Need } from './requires.js';
import { suiteTempDir, tempDir } from './tmp.js';

const root = resolve(import.meta.dirname, '../..');
export const CLIENT_BIN = join(root, 'test', 'clients', 'node_modules', '.bin');
/** The clients need Node 22: the node@22 dev dependency provides it. */
export const NODE22_DIR = join(root, 'node_modules', 'node', 'bin');
/**
 * Copilot CLI unpacks its ~235 MB application into a cache on first start (12 s here); sharing one
 * cache beside the installed clients keeps that cost to once per install instead of once per HOME.
 */
const COPILOT_CACHE = join(root, 'test', 'clients', 'node_modules', '.copilot-cache');

/** The agent CLIs `ah ai install` drives, by their bin names. */
export type AgentCli = 'claude' | 'codex' | 'gemini' | 'copilot' | 'opencode';

export function clientsInstalled(): boolean {
  return existsSync(join(CLIENT_BIN, 'claude')) && existsSync(join(NODE22_DIR, 'node'));
}

/** A missing client is a skip with a reason (test/helpers/requires.ts), never a silent pass. */
export function clientNeed(cli: AgentCli): Need {
  return {
    name: `${cli} (test/clients)`,
    probe: () => {
      if (!existsSync(join(NODE22_DIR, 'node'))) return `${NODE22_DIR}/node is missing (the clients need Node 22)`;
      return existsSync(join(CLIENT_BIN, cli)) ? null : `${join(CLIENT_BIN, cli)} is not installed`;
    },
    hint: 'node scripts/install-test-clients.mjs (npm test runs it)',
  };
}

/** PATH for a client run: Node 22 first (the clients' shebangs say `node`), then the client bins. */
export function clientPath(): string {
  const system = (process.env.PATH ?? '')
    .split(':')
    .filter((p) => p !== '' && !p.includes('node_modules'))
    .join(':');
  return `${NODE22_DIR}:${CLIENT_BIN}:${system}`;
}

/**
 * A private HOME and config tree for one client run. Every client is pointed into it (or, where
 * it honours no variable, finds it through HOME), and told not to update itself or phone home.
 */
export function clientHome(options: { suite?: boolean } = {}): { home: string; env: NodeJS.ProcessEnv } {
  // suite: removed after the file, not after the current test (concurrent tests must use this, as
  // the per-test cleanup removes every per-test directory when any test ends).
  const home = options.suite ? suiteTempDir('ah-client-') : tempDir('ah-client-');
  const env: NodeJS.ProcessEnv = {
    PATH: clientPath(),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // Codex refuses to start unless CODEX_HOME exists (created below).
    CODEX_HOME: join(home, '.codex'),
    // Gemini CLI keeps its settings in $GEMINI_CLI_HOME/.gemini.
    GEMINI_CLI_HOME: home,
    // An untrusted folder disables every server in `gemini mcp list`, user-level ones included.
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    COPILOT_HOME: join(home, '.copilot'),
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_CACHE_HOME: COPILOT_CACHE,
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    NO_COLOR: '1',
    AH_CONFIG_DIR: join(home, 'ah-config'),
  };
  for (const dir of ['.claude', '.codex', '.copilot', '.gemini', '.config/opencode', 'ah-config'])
    mkdirSync(join(home, dir), { recursive: true });
  return { home, env };
}

export function runClient(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  timeoutMs = 90_000,
): Promise<{ code: number | null; output: string; stdout: string }> {
  return new Promise((done, reject) => {
    const child = spawn(join(CLIENT_BIN, name), args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    // output: both streams as a person sees them; stdout alone for the clients' --json modes.
    let output = '';
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output, stdout });
    });
  });
}
