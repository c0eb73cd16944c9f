// Soak: 10,000 ah.file.stat calls over 8 HTTP sessions with 32 in flight in total (4 per session)
// against the real `ah mcp serve --transport http`; counts errors and compares VmRSS after 10,000
// calls with the value after 1,000. Exits non-zero when any call failed or RSS grew more than 10 %.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AH, round, saveResult, table, vmRssKiB } from './lib.mjs';
import { connectHttp } from './mcp-client.mjs';

const SESSIONS = 8;
const IN_FLIGHT = 32;
const CALLS = 10_000;
const CHECKPOINT = 1_000;
const MAX_GROWTH_PERCENT = 10;
// A bound on the whole run, so a wedged server fails the soak instead of hanging it.
const BUDGET_MS = 300_000;

function startServer(env) {
  const child = spawn(process.execPath, [AH, 'mcp', 'serve', '--transport', 'http', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = new Promise((resolve, reject) => {
    let text = '';
    const onData = (c) => {
      text += c.toString();
      const m = /127\.0\.0\.1:(\d+)\/mcp/.exec(text);
      if (m) resolve(Number(m[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => reject(new Error(`ah exited ${code}: ${text}`)));
  });
  return { child, port };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'ah-bench-soak-'));
  mkdirSync(join(dir, 'home'), { recursive: true });
  const file = join(dir, 'four-k.txt');
  writeFileSync(file, `${'x'.repeat(63)}\n`.repeat(64));
  const server = startServer({ PATH: process.env.PATH, HOME: join(dir, 'home'), AH_CONFIG_DIR: join(dir, 'ah') });
  const deadline = Date.now() + BUDGET_MS;
  try {
    const url = `http://127.0.0.1:${await server.port}/mcp`;
    const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => connectHttp(url)));
    const args = { path: file, context: { cwd: dir } };
    let started = 0;
    let done = 0;
    let errors = 0;
    let firstError;
    let rss1k = Number.NaN;
    // IN_FLIGHT workers, spread evenly over the sessions; each takes the next call number.
    const worker = async (client) => {
      while (started < CALLS && Date.now() < deadline) {
        started += 1;
        try {
          const result = await client.callTool({ name: 'ah.file.stat', arguments: args });
          if (result.isError) throw new Error(JSON.stringify(result).slice(0, 300));
        } catch (error) {
          errors += 1;
          firstError ??= error;
        }
        done += 1;
        if (done === CHECKPOINT) {
          rss1k = vmRssKiB(server.child.pid);
        }
      }
    };
    const t0 = process.hrtime.bigint();
    await Promise.all(Array.from({ length: IN_FLIGHT }, (_, i) => worker(sessions[i % SESSIONS])));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const rss10k = vmRssKiB(server.child.pid);
    for (const c of sessions) await c.close().catch(() => undefined);
    const result = {
      calls: done,
      errors,
      rss1kMiB: round(rss1k / 1024, 1),
      rss10kMiB: round(rss10k / 1024, 1),
      growthPercent: round((rss10k / rss1k - 1) * 100, 1),
      callsPerSecond: round(done / seconds, 0),
    };
    saveResult('soak', result);
    const ok = result.calls === CALLS && errors === 0 && result.growthPercent <= MAX_GROWTH_PERCENT;
    if (!ok) {
      process.exitCode = 1;
      if (firstError) process.stderr.write(`first error: ${firstError.message ?? firstError}\n`);
    }
    const line = `${result.calls} calls, ${errors} errors, VmRSS ${result.rss1kMiB} MiB after 1k → ${result.rss10kMiB} MiB after 10k (${result.growthPercent >= 0 ? '+' : ''}${result.growthPercent} %), ${result.callsPerSecond} calls/s`;
    return `### Soak: ah.file.stat over ${SESSIONS} HTTP sessions, ${IN_FLIGHT} in flight (${process.version})\n\n${table(
      ['calls', 'errors', 'VmRSS MiB after 1k', 'after 10k', 'growth', 'calls/s', 'verdict'],
      [[result.calls, errors, result.rss1kMiB, result.rss10kMiB, `${result.growthPercent} %`, result.callsPerSecond, ok ? 'pass' : 'FAIL']],
    )}\n\n${line}`;
  } finally {
    server.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) process.stdout.write(`${await run()}\n`);
