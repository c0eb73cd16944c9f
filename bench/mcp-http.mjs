// MCP over local Streamable HTTP against server-everything (echo) and the SDK floor: latency and
// calls/s at 1, 8 and 32 in flight (after a common warm-up, in rounds that alternate the servers,
// medians over the rounds), and VmRSS after 1,000 and 10,000 calls over 8 sessions.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  AH,
  inRoundOrder,
  installPeers,
  median,
  processCpuMs,
  ROOT,
  round,
  saveResult,
  scratchDir,
  startListening,
  table,
  vmRssKiB,
} from './lib.mjs';
import { connectHttp, SLOW, throughput } from './mcp-client.mjs';
import { PEERS } from './mcp-stdio.mjs';
import { connectRawHttp } from './raw-http-client.mjs';

/** Calls every server makes before anything is measured (JIT warm-up, first-use work). */
const WARM_UP_CALLS = 500;
const ROUNDS = 7;
/** Concurrencies measured again with the lean client, and its calls per round. */
const LEAN_IN_FLIGHT = [8, 32];
const LEAN_CALLS = 3000;

/** The raw floor reading a 2-byte file. */
const NULL_SERVER = 'null server (raw JSON-RPC, 2-byte read)';

function freePortEnv(port) {
  return { PORT: String(port) };
}

export async function run() {
  const peers = installPeers(PEERS);
  const dir = scratchDir('ah-bench-http-');
  mkdirSync(join(dir, 'home'), { recursive: true });
  writeFileSync(join(dir, 'four-k.txt'), `${'x'.repeat(63)}\n`.repeat(64));
  writeFileSync(join(dir, 'two-b.txt'), 'x\n');
  const env = { PATH: process.env.PATH, HOME: join(dir, 'home'), AH_CONFIG_DIR: join(dir, 'ah') };
  const everythingPort = 30000 + Math.floor(Math.random() * 20000);
  const servers = [
    {
      name: 'ah',
      proc: await startListening([AH, 'mcp', 'serve', '--transport', 'http', '--port', '0'], env, /127\.0\.0\.1:(\d+)\/mcp/),
      tool: 'ah.file.stat',
      args: { path: join(dir, 'four-k.txt'), context: { cwd: dir } },
    },
    {
      name: 'server-everything',
      proc: await startListening(
        [
          '--import',
          join(ROOT, 'bench', 'loopback-only.mjs'),
          join(peers, '@modelcontextprotocol/server-everything/dist/index.js'),
          'streamableHttp',
        ],
        { ...env, ...freePortEnv(everythingPort) },
        new RegExp(`(${everythingPort})`),
      ),
      tool: 'echo',
      args: { message: 'hi' },
    },
    {
      name: 'floor',
      proc: await startListening([join(ROOT, 'bench', 'floor-server.mjs'), '--http', '0'], env, /floor listening on (\d+)/),
      tool: 'read',
      args: { path: join(dir, 'four-k.txt') },
    },
    {
      name: 'floor (SDK v1)',
      proc: await startListening([join(ROOT, 'bench', 'floor-v1-server.mjs'), '--http', '0'], env, /floor listening on (\d+)/),
      tool: 'read',
      args: { path: join(dir, 'four-k.txt') },
    },
    {
      name: 'floor (raw JSON-RPC)',
      proc: await startListening([join(ROOT, 'bench', 'floor-raw-server.mjs'), '--http', '0'], env, /floor listening on (\d+)/),
      tool: 'read',
      args: { path: join(dir, 'four-k.txt') },
    },
    // The raw floor answering the smallest result there is: no server can cost the SDK client less
    // per call, so its ratio to server-everything is the most any server can show through it.
    {
      name: NULL_SERVER,
      proc: await startListening([join(ROOT, 'bench', 'floor-raw-server.mjs'), '--http', '0'], env, /floor listening on (\d+)/),
      tool: 'read',
      args: { path: join(dir, 'two-b.txt') },
    },
  ];
  const results = {};
  const clients = {};
  for (const s of servers) {
    clients[s.name] = await connectHttp(`http://127.0.0.1:${s.proc.port}/mcp`);
    const probe = await clients[s.name].callTool({ name: s.tool, arguments: s.args }, SLOW);
    if (probe.isError) throw new Error(`${s.name}: ${JSON.stringify(probe).slice(0, 300)}`);
    results[s.name] = {};
  }
  const call = (s) => () => clients[s.name].callTool({ name: s.tool, arguments: s.args }, SLOW);
  for (const s of servers) await throughput(call(s), 1, WARM_UP_CALLS);
  for (const n of [1, 8, 32]) {
    const rounds = Object.fromEntries(servers.map((s) => [s.name, []]));
    for (let r = 0; r < ROUNDS; r += 1) {
      for (const s of inRoundOrder(servers, r)) rounds[s.name].push(await throughput(call(s), n, n === 1 ? 400 : 1000, 2500));
    }
    for (const s of servers) {
      const runs = rounds[s.name];
      results[s.name][n] = {
        callsPerSecond: median(runs.map((t) => t.callsPerSecond)),
        p50: median(runs.map((t) => t.p50)),
        p99: median(runs.map((t) => t.p99)),
      };
    }
  }
  // The same calls from the lean client (raw-http-client.mjs), with the server's CPU per call: the
  // SDK client spends more CPU per call than any of these servers, so at 8 and 32 in flight it
  // sets the pace; the lean one leaves the second core to the server.
  const lean = {};
  for (const s of servers) lean[s.name] = await connectRawHttp(`http://127.0.0.1:${s.proc.port}/mcp`);
  const leanCall = (s) => async () => {
    // A failed request names its server: six run side by side.
    const answer = await lean[s.name].request('tools/call', { name: s.tool, arguments: s.args }).catch((error) => {
      throw new Error(`${s.name}: ${error.message} (${error.code ?? 'no code'})`, { cause: error });
    });
    if (answer.error !== undefined || answer.result?.isError) throw new Error(`${s.name}: ${JSON.stringify(answer).slice(0, 300)}`);
  };
  for (const s of servers) await throughput(leanCall(s), 8, WARM_UP_CALLS);
  for (const n of LEAN_IN_FLIGHT) {
    const rounds = Object.fromEntries(servers.map((s) => [s.name, { cps: [], cpu: [] }]));
    for (let r = 0; r < ROUNDS; r += 1) {
      for (const s of inRoundOrder(servers, r)) {
        const cpu0 = processCpuMs(s.proc.child.pid);
        const t = await throughput(leanCall(s), n, LEAN_CALLS, 2500);
        rounds[s.name].cps.push(t.callsPerSecond);
        rounds[s.name].cpu.push(((processCpuMs(s.proc.child.pid) - cpu0) / t.calls) * 1000);
      }
    }
    for (const s of servers) {
      results[s.name][`lean${n}`] = {
        callsPerSecond: median(rounds[s.name].cps),
        serverCpuMicros: round(median(rounds[s.name].cpu), 0),
      };
    }
  }
  for (const s of servers) lean[s.name].close();
  // RSS growth: 10,000 calls spread over 8 sessions.
  for (const s of servers) {
    const sessions = [
      clients[s.name],
      ...(await Promise.all(Array.from({ length: 7 }, () => connectHttp(`http://127.0.0.1:${s.proc.port}/mcp`)))),
    ];
    let done = 0;
    const step = async (until) => {
      await Promise.all(
        sessions.map(async (c) => {
          while (done < until) {
            done += 1;
            await c.callTool({ name: s.tool, arguments: s.args }, SLOW);
          }
        }),
      );
    };
    await step(1000);
    results[s.name].rss1k = round(vmRssKiB(s.proc.child.pid) / 1024, 1);
    await step(10000);
    results[s.name].rss10k = round(vmRssKiB(s.proc.child.pid) / 1024, 1);
    for (const c of sessions) await c.close().catch(() => undefined);
    s.proc.stop();
  }
  saveResult('mcp-http', results);
  const rows = servers.map(({ name }) => {
    const r = results[name];
    return [
      name,
      ...[1, 8, 32].map((n) => `${r[n].callsPerSecond} (${r[n].p50} / ${r[n].p99})`),
      r.rss1k,
      r.rss10k,
      `${round((r.rss10k / r.rss1k - 1) * 100, 1)} %`,
    ];
  });
  // The bar is the faster SDK floor at each concurrency; the raw floor is the transport limit.
  const ratios = [1, 8, 32].flatMap((n) => {
    const v2 = results.floor[n].callsPerSecond;
    const v1 = results['floor (SDK v1)'][n].callsPerSecond;
    const ah = results.ah[n].callsPerSecond;
    const everything = results['server-everything'][n].callsPerSecond;
    const nothing = results[NULL_SERVER][n].callsPerSecond;
    return [
      [`calls/s at ${n} vs fastest SDK floor (${v1 > v2 ? 'v1' : 'v2'})`, round(ah / Math.max(v1, v2), 2), '>= 1.0'],
      [`calls/s at ${n} vs server-everything`, round(ah / everything, 2), '>= 1.5'],
      [`calls/s at ${n} vs raw JSON-RPC floor`, round(ah / results['floor (raw JSON-RPC)'][n].callsPerSecond, 2), '(transport limit)'],
      [`calls/s at ${n} vs the null server`, round(ah / nothing, 2), '(client limit)'],
      [
        `the null server vs server-everything at ${n}`,
        round(nothing / everything, 2),
        '(the most any server shows through the SDK client)',
      ],
    ];
  });
  for (const n of LEAN_IN_FLIGHT) {
    const key = `lean${n}`;
    ratios.push([
      `lean client: calls/s at ${n} vs server-everything`,
      round(results.ah[key].callsPerSecond / results['server-everything'][key].callsPerSecond, 2),
      '(server capacity)',
    ]);
    ratios.push([
      `lean client: server CPU per call at ${n}, server-everything ÷ ah`,
      round(results['server-everything'][key].serverCpuMicros / results.ah[key].serverCpuMicros, 2),
      '(server cost)',
    ]);
  }
  ratios.push(['RSS growth 1k → 10k calls', `${round((results.ah.rss10k / results.ah.rss1k - 1) * 100, 1)} %`, '<= +10 %']);
  const leanRows = servers.map(({ name }) => [
    name,
    ...LEAN_IN_FLIGHT.flatMap((n) => [results[name][`lean${n}`].callsPerSecond, results[name][`lean${n}`].serverCpuMicros]),
  ]);
  const leanTable = table(
    ['server (lean client)', ...LEAN_IN_FLIGHT.flatMap((n) => [`calls/s @${n}`, `server CPU µs/call @${n}`])],
    leanRows,
  );
  return `### MCP over local HTTP (${process.version}; ah: ah.file.stat, server-everything: echo, floors: read 4 KiB, null server: read 2 bytes; ${WARM_UP_CALLS} warm-up calls, ${ROUNDS} interleaved rounds, medians)\n\n${table(['server', 'calls/s @1 (p50 / p99 ms)', '@8', '@32', 'VmRSS MiB after 1k', 'after 10k', 'growth'], rows)}\n\n${table(['ah ratio', 'measured', 'target'], ratios)}\n\n${leanTable}`;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) process.stdout.write(`${await run()}\n`);
