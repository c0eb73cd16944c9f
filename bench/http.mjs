// `ah.http.get` over MCP stdio against a loopback server, next to its floors: the same GET with
// Node's fetch in a bare Node process (http-floor.mjs), `curl` as a process per request, and the
// MCP round trip of ah itself (`file.read` of a 4 KiB file on the same server). Rounds alternate
// the four after a common warm-up; figures are medians over the rounds. RSS is read after 1,000
// and after 10,000 requests.
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AH, median, ROOT, round, saveResult, scratchDir, table, vmRssKiB } from './lib.mjs';
import { connectStdio, throughput } from './mcp-client.mjs';

const ROUNDS = 3;
const CALLS = 1500;
const SERVER = `
const http = require('node:http');
const body = JSON.stringify({ ok: true, items: [1, 2, 3], name: 'bench' });
const s = http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); });
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));
`;

async function startServer() {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  return { child, url: `http://127.0.0.1:${port}/api` };
}

function floor(url, inFlight) {
  const out = execFileSync(process.execPath, [join(ROOT, 'bench', 'http-floor.mjs'), url, String(CALLS), String(inFlight)], {
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

/** curl as one process per request, `inFlight` at a time. */
async function curl(url, inFlight, total = 300) {
  const samples = [];
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (issued < total) {
        issued += 1;
        const t = performance.now();
        await new Promise((resolve, reject) => {
          const c = spawn('curl', ['-s', '-o', '/dev/null', url], { stdio: 'ignore' });
          c.on('error', reject);
          c.on('close', resolve);
        });
        samples.push(performance.now() - t);
      }
    }),
  );
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(samples.length / 2)], callsPerSecond: samples.length / ((performance.now() - started) / 1000) };
}

export async function run() {
  const server = await startServer();
  const dir = scratchDir('ah-bench-http-');
  writeFileSync(join(dir, 'four.txt'), `${'x'.repeat(63)}\n`.repeat(64));
  const home = scratchDir('ah-bench-http-home-');
  const env = { PATH: process.env.PATH, HOME: home, AH_CONFIG_DIR: join(home, 'ah') };
  const ah = await connectStdio(process.execPath, [AH, '--cwd', dir, 'mcp', 'serve'], env);
  const get = () => ah.client.callTool({ name: 'ah.http.get', arguments: { url: server.url } });
  const read = () => ah.client.callTool({ name: 'ah.file.read', arguments: { path: 'four.txt' } });
  const probe = await get();
  if (probe.isError || probe.structuredContent?.status !== 200) throw new Error(`ah.http.get failed: ${JSON.stringify(probe)}`);
  for (let i = 0; i < 300; i += 1) {
    await get();
    await read();
  }
  const rows = { get: { 1: [], 32: [] }, read: { 1: [], 32: [] }, floor: { 1: [], 32: [] }, curl: { 1: [], 32: [] } };
  for (let round_ = 0; round_ < ROUNDS; round_ += 1) {
    for (const inFlight of [1, 32]) {
      rows.floor[inFlight].push(floor(server.url, inFlight));
      rows.get[inFlight].push(await throughput(get, inFlight, CALLS, 20_000));
      rows.read[inFlight].push(await throughput(read, inFlight, CALLS, 20_000));
      rows.curl[inFlight].push(await curl(server.url, inFlight));
    }
  }
  // RSS over 10,000 requests (32 in flight), read after the first 1,000 and at the end.
  await throughput(get, 32, 1000, 120_000);
  const rss1k = vmRssKiB(ah.pid);
  await throughput(get, 32, 9000, 300_000);
  const rss10k = vmRssKiB(ah.pid);
  await ah.client.close();
  server.child.kill();

  const summary = {};
  for (const [name, byFlight] of Object.entries(rows)) {
    summary[name] = {};
    for (const inFlight of [1, 32]) {
      summary[name][inFlight] = {
        p50: round(median(byFlight[inFlight].map((r) => r.p50)), 3),
        callsPerSecond: round(median(byFlight[inFlight].map((r) => r.callsPerSecond)), 0),
      };
    }
  }
  const target = round(1.3 * (summary.floor[1].p50 + summary.read[1].p50), 3);
  const result = { summary, target_p50_ms: target, met: summary.get[1].p50 <= target, rss_kib: { after_1k: rss1k, after_10k: rss10k } };
  saveResult('http', result);
  const label = {
    get: 'ah.http.get over MCP stdio',
    read: 'ah.file.read 4 KiB over MCP stdio (the MCP round trip)',
    floor: 'fetch in a bare Node process (floor)',
    curl: 'curl, a process per request',
  };
  const body = table(
    ['client', 'p50 ms (1 in flight)', 'calls/s (1)', 'p50 ms (32 in flight)', 'calls/s (32)'],
    Object.entries(summary).map(([name, s]) => [label[name], s[1].p50, s[1].callsPerSecond, s[32].p50, s[32].callsPerSecond]),
  );
  return [
    '## http',
    '',
    body,
    '',
    `Target: ah.http.get p50 <= 1.3 × (floor + MCP round trip) = ${target} ms at 1 in flight: ${result.met ? 'met' : 'NOT met'} (${summary.get[1].p50} ms).`,
    `VmRSS of the server: ${round(rss1k / 1024, 1)} MiB after 1,000 requests, ${round(rss10k / 1024, 1)} MiB after 10,000.`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) process.stdout.write(`${await run()}\n`);
