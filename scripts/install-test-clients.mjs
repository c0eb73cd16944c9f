// Installs the real agent clients the end-to-end tests drive (test/clients: Claude Code, Codex,
// Gemini CLI, Copilot CLI, OpenCode, MCP Inspector, at the exact versions in
// test/clients/package.json), once: a stamp holding the
// hash of that package.json says the tree is current, so later runs reuse it and a changed pin
// reinstalls. The clients need Node 22, so npm runs on the node@22 dev dependency and resolves for
// it. (npm install, not ci: npm cannot lock the other platforms' optional opencode binaries, so
// `npm ci` refuses that lockfile; the exact top-level versions keep the run reproducible.)
//
// Run alone: node scripts/install-test-clients.mjs
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemPath } from './system-node.mjs';

const root = new URL('..', import.meta.url).pathname;
const clients = join(root, 'test', 'clients');
const stamp = join(clients, 'node_modules', '.aihelper-stamp');
const node22 = join(root, 'node_modules', 'node', 'bin', 'node');
const BINS = ['claude', 'codex', 'gemini', 'copilot', 'opencode', 'mcp-inspector'];

/** The npm CLI script that runs this process (or the first `npm` on PATH). */
function npmCli() {
  const fromNpm = process.env.npm_execpath;
  if (fromNpm?.endsWith('npm-cli.js') && existsSync(fromNpm)) return fromNpm;
  for (const dir of systemPath().split(':').filter(Boolean)) {
    const candidate = join(dir, 'npm');
    if (existsSync(candidate)) return realpathSync(candidate);
  }
  return null;
}

const wanted = () =>
  createHash('sha256')
    .update(readFileSync(join(clients, 'package.json')))
    .digest('hex');

/** True when test/clients holds what its package.json pins (stamp matches, every bin present). */
export function clientsCurrent() {
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== wanted()) return false;
  return BINS.every((b) => existsSync(join(clients, 'node_modules', '.bin', b)));
}

/** Installs when needed; returns { ok, message }. Output of npm goes to this process's stdio. */
export function installTestClients() {
  if (clientsCurrent()) return { ok: true, message: 'test/clients is current (stamp matches package.json)' };
  if (!existsSync(node22)) return { ok: false, message: `${node22} is missing: run npm ci first (node@22 is a dev dependency)` };
  const cli = npmCli();
  if (!cli) return { ok: false, message: 'npm not found on PATH' };
  const result = spawnSync(node22, [cli, 'install', '--prefix', clients, '--no-audit', '--no-fund', '--no-save'], {
    cwd: root,
    stdio: 'inherit',
    // node22's directory first, so lifecycle scripts of the clients run on Node 22 too.
    env: { ...process.env, PATH: `${join(root, 'node_modules', 'node', 'bin')}:${systemPath()}` },
    timeout: 15 * 60_000,
  });
  if (result.status !== 0) {
    return { ok: false, message: `npm install --prefix test/clients failed (exit ${result.status ?? result.signal}); rerun it to see why` };
  }
  const missing = BINS.filter((b) => !existsSync(join(clients, 'node_modules', '.bin', b)));
  if (missing.length > 0) return { ok: false, message: `installed, but no ${missing.join(', ')} in test/clients/node_modules/.bin` };
  writeFileSync(stamp, `${wanted()}\n`);
  return { ok: true, message: 'installed test/clients' };
}

if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(new URL(import.meta.url).pathname)) {
  const { ok, message } = installTestClients();
  process.stdout.write(`${message}\n`);
  process.exit(ok ? 0 : 1);
}
