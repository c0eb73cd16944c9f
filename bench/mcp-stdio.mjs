// MCP over stdio against server-filesystem, Desktop Commander and the SDK floor, interleaved.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AH, installPeers, median, ROOT, round, saveResult, table, vmRssKiB } from './lib.mjs';
import { connectStdio, latencies, throughput } from './mcp-client.mjs';

export const PEERS = [
  '@modelcontextprotocol/server-filesystem@2026.8.31',
  '@wonderwhy-er/desktop-commander@0.2.52',
  '@modelcontextprotocol/server-everything@2026.8.31',
];

function servers(peers, dir, home) {
  const env = { PATH: process.env.PATH, HOME: home, AH_CONFIG_DIR: join(home, 'ah') };
  return [
    { name: 'ah', cmd: [AH, '--cwd', dir, 'mcp', 'serve'], tool: 'ah.file.read', args: (p) => ({ path: p }), env },
    {
      name: 'server-filesystem',
      cmd: [join(peers, '@modelcontextprotocol/server-filesystem/dist/index.js'), dir],
      tool: 'read_text_file',
      args: (p) => ({ path: join(dir, p) }),
      env,
    },
    {
      name: 'desktop-commander',
      cmd: [join(peers, '@wonderwhy-er/desktop-commander/dist/index.js')],
      tool: 'read_file',
      args: (p) => ({ path: join(dir, p) }),
      env,
    },
    { name: 'floor', cmd: [join(ROOT, 'bench', 'floor-server.mjs')], tool: 'read', args: (p) => ({ path: join(dir, p) }), env },
  ];
}

export async function run({ starts = 10 } = {}) {
  const peers = installPeers(PEERS);
  const dir = mkdtempSync(join(tmpdir(), 'ah-bench-stdio-'));
  const home = join(dir, 'home');
  mkdirSync(join(home, '.claude-server-commander'), { recursive: true });
  // Desktop Commander: telemetry off, its config under the temp HOME.
  writeFileSync(join(home, '.claude-server-commander', 'config.json'), JSON.stringify({ telemetryEnabled: false, allowedDirectories: [] }));
  writeFileSync(join(dir, 'four-k.txt'), `${'x'.repeat(63)}\n`.repeat(64));
  writeFileSync(join(dir, 'one-m.txt'), `${'y'.repeat(1023)}\n`.repeat(1024));
  const list = servers(peers, dir, home);
  const results = Object.fromEntries(list.map((s) => [s.name, { start: [] }]));
  // Cold start, interleaved: spawn → initialize result.
  for (let i = 0; i < starts; i += 1) {
    for (const s of list) {
      const c = await connectStdio(process.execPath, s.cmd, s.env);
      results[s.name].start.push(c.startMs);
      await c.client.close();
    }
  }
  const clients = {};
  for (const s of list) {
    clients[s.name] = await connectStdio(process.execPath, s.cmd, s.env);
    const probe = await clients[s.name].client.callTool({ name: s.tool, arguments: s.args('four-k.txt') });
    if (probe.isError) throw new Error(`${s.name}: ${JSON.stringify(probe).slice(0, 300)}`);
  }
  const call = (s, file) => () => clients[s.name].client.callTool({ name: s.tool, arguments: s.args(file) });
  for (const s of list) {
    const r = results[s.name];
    const listed = await clients[s.name].client.listTools();
    r.tools = listed.tools.length;
    r.listBytes = JSON.stringify(listed).length;
    r.list = await latencies(() => clients[s.name].client.listTools(), 50);
  }
  for (const s of list) results[s.name].read4k = await latencies(call(s, 'four-k.txt'), 300);
  for (const s of list) results[s.name].read1m = await latencies(call(s, 'one-m.txt'), 40);
  for (const n of [1, 8, 32])
    for (const s of list) results[s.name][`cps${n}`] = (await throughput(call(s, 'four-k.txt'), n, n === 1 ? 400 : 1200)).callsPerSecond;
  for (const s of list) {
    results[s.name].rssMiB = round(vmRssKiB(clients[s.name].pid) / 1024, 1);
    await clients[s.name].client.close();
  }
  for (const r of Object.values(results)) r.startMs = round(median(r.start), 1);
  saveResult('mcp-stdio', results);
  const floor = results.floor;
  const fs = results['server-filesystem'];
  const rows = list.map(({ name }) => {
    const r = results[name];
    return [
      name,
      r.startMs,
      `${r.tools} / ${r.listBytes} B`,
      r.list.p50,
      `${r.read4k.p50} / ${r.read4k.p99}`,
      `${r.read1m.p50} / ${r.read1m.p99}`,
      r.cps1,
      r.cps8,
      r.cps32,
      r.rssMiB,
    ];
  });
  const ah = results.ah;
  const ratios = [
    ['cold start vs server-filesystem', round(ah.startMs / fs.startMs, 2), '<= 0.6'],
    ['tools/list p50 vs server-filesystem', round(ah.list.p50 / fs.list.p50, 2), '<= 1 (with >= 3x the tools)'],
    ['4 KiB read p50 vs floor', round(ah.read4k.p50 / floor.read4k.p50, 2), '<= 1.1'],
    ['1 MiB read p50 vs floor', round(ah.read1m.p50 / floor.read1m.p50, 2), '<= 1.1'],
    ['calls/s at 32 vs floor', round(ah.cps32 / floor.cps32, 2), '>= 0.9'],
    ['VmRSS vs floor', round(ah.rssMiB / floor.rssMiB, 2), '<= 1.1'],
  ];
  return `### MCP over stdio (${process.version})\n\n${table(['server', 'cold start ms', 'tools / list bytes', 'list p50 ms', '4 KiB p50/p99 ms', '1 MiB p50/p99 ms', 'calls/s @1', '@8', '@32', 'VmRSS MiB'], rows)}\n\n${table(['ah ratio', 'measured', 'target'], ratios)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) process.stdout.write(`${await run()}\n`);
