// Shared helpers for the benchmarks: timing, percentiles, peers installed into a temp dir.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * NODE_EXTRA_CA_CERTS makes every Node process parse that certificate bundle before running any
 * JavaScript (~60 ms per start on the machine these numbers come from, which sets it for its
 * proxy). It would add the same constant to every Node program measured here (bare node, ah and
 * the Node peers alike) and none of them needs it, so the benchmarks start everything without it.
 */
export const REMOVED_ENV = process.env.NODE_EXTRA_CA_CERTS === undefined ? [] : ['NODE_EXTRA_CA_CERTS'];
delete process.env.NODE_EXTRA_CA_CERTS;
export const AH = join(ROOT, 'bin', 'ah.cjs');

/** A fresh directory under the system temp dir, removed when the bench process exits. */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
export const median = (values) => percentile(values, 50);
export const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * The servers of an interleaved bench in the order round `r` measures them: the list turned by r,
 * so no server always follows the same one (the bench process's own garbage and the machine's
 * state after a server's burst of calls fall on each server in turn).
 */
export const inRoundOrder = (list, r) => list.map((_, i) => list[(i + r) % list.length]);

/** Wall time of a command in ms (spawnSync, output discarded). */
export function timeCommand(cmd, args, options = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30, ...options });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0 && !options.allowFailure) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

/** Installs npm packages once into a cache dir under the OS temp dir; returns node_modules. */
export function installPeers(packages) {
  const dir = join(tmpdir(), 'ah-bench-peers');
  mkdirSync(dir, { recursive: true });
  const marker = join(dir, 'installed.json');
  const wanted = JSON.stringify(packages);
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== wanted) {
    if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{"private":true}');
    process.stderr.write(`installing peers: ${packages.join(' ')}\n`);
    // Install scripts off: a peer's dependencies may try to download browsers, which this network refuses.
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...packages], {
      cwd: dir,
      stdio: 'inherit',
      env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
    });
    writeFileSync(marker, wanted);
  }
  return join(dir, 'node_modules');
}

export function vmRssKiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system, all threads) a process has used so far, in ms; Linux, 10 ms ticks. */
export function processCpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function saveResult(name, data) {
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(data, null, 2)}\n`);
}

export function table(headers, rows) {
  const lines = [`| ${headers.join(' | ')} |`, `| ${headers.map(() => '---').join(' | ')} |`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

/** Servers a bench started: killed when the bench process exits, even when a part failed. */
const listening = new Set();
process.once('exit', () => {
  for (const child of listening) child.kill('SIGKILL');
});

/**
 * Starts `node ...args` and resolves once its stdout or stderr shows the port it listens on (the
 * first group of `portPattern`); `stop` kills it.
 */
export async function startListening(args, env, portPattern) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  listening.add(child);
  child.once('exit', () => listening.delete(child));
  const port = await new Promise((resolve, reject) => {
    let text = '';
    const onData = (c) => {
      text += c.toString();
      const m = portPattern.exec(text);
      if (m) resolve(Number(m[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => reject(new Error(`exited ${code}: ${text}`)));
  });
  return { child, port, stop: () => child.kill('SIGKILL') };
}
