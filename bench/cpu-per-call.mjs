// Calls per second and CPU per call of the server and of the client (the SDK v2 client, in this
// process), for ah and the floors, over stdio or HTTP: `node bench/cpu-per-call.mjs [--http]
// [--in N] [--calls N] [--rounds N] [--file four-k.txt|one-m.txt] [--only ah,v1,...] [--prof DIR]`.
// Rounds alternate the servers after 500 warm-up calls each; figures are medians over the rounds.
// Server CPU comes from /proc/<pid>/stat (Linux), so the split between client and server is
// measured, not inferred. --prof writes a V8 CPU profile of every server into DIR.
import { spawn } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AH, installPeers, median, processCpuMs, ROOT, scratchDir } from './lib.mjs';
import { connectHttp, connectStdio, SLOW } from './mcp-client.mjs';
import { PEERS } from './mcp-stdio.mjs';

// The SDK client adds an abort listener per request to one signal of a session whose answers are
// SSE streams (server-everything): past 1,500 Node warns on every call and buries the output.
setMaxListeners(0);

const { values: opts } = parseArgs({
  options: {
    http: { type: 'boolean', default: false },
    in: { type: 'string', default: '8' },
    calls: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '5' },
    file: { type: 'string', default: 'four-k.txt' },
    only: { type: 'string' },
    prof: { type: 'string' },
  },
});

const peers = installPeers(PEERS);
const dir = scratchDir('ah-bench-cpu-');
mkdirSync(join(dir, 'home'));
writeFileSync(join(dir, 'four-k.txt'), `${'x'.repeat(63)}\n`.repeat(64));
writeFileSync(join(dir, 'one-m.txt'), `${'y'.repeat(1023)}\n`.repeat(1024));
const env = { PATH: process.env.PATH, HOME: join(dir, 'home'), AH_CONFIG_DIR: join(dir, 'ah') };
const node = (args) => [...(opts.prof ? ['--cpu-prof', `--cpu-prof-dir=${opts.prof}`, '--cpu-prof-interval=50'] : []), ...args];
const file = join(dir, opts.file);
const sf = join(peers, '@modelcontextprotocol/server-filesystem/dist/index.js');
const everything = join(peers, '@modelcontextprotocol/server-everything/dist/index.js');
const everythingPort = 30000 + Math.floor(Math.random() * 20000);

const STDIO = [
  { name: 'ah', args: [AH, '--cwd', dir, 'mcp', 'serve'], tool: 'ah.file.read', arguments: { path: opts.file } },
  { name: 'v1', args: [join(ROOT, 'bench/floor-v1-server.mjs')], tool: 'read', arguments: { path: file } },
  { name: 'v2', args: [join(ROOT, 'bench/floor-server.mjs')], tool: 'read', arguments: { path: file } },
  { name: 'raw', args: [join(ROOT, 'bench/floor-raw-server.mjs')], tool: 'read', arguments: { path: file } },
  { name: 'sf', args: [sf, dir], tool: 'read_text_file', arguments: { path: file } },
];
const HTTP = [
  {
    name: 'ah',
    args: [AH, 'mcp', 'serve', '--transport', 'http', '--port', '0'],
    port: /127\.0\.0\.1:(\d+)\/mcp/,
    tool: 'ah.file.stat',
    arguments: { path: file, context: { cwd: dir } },
  },
  {
    name: 'v1',
    args: [join(ROOT, 'bench/floor-v1-server.mjs'), '--http', '0'],
    port: /floor listening on (\d+)/,
    tool: 'read',
    arguments: { path: file },
  },
  {
    name: 'v2',
    args: [join(ROOT, 'bench/floor-server.mjs'), '--http', '0'],
    port: /floor listening on (\d+)/,
    tool: 'read',
    arguments: { path: file },
  },
  {
    name: 'raw',
    args: [join(ROOT, 'bench/floor-raw-server.mjs'), '--http', '0'],
    port: /floor listening on (\d+)/,
    tool: 'read',
    arguments: { path: file },
  },
  {
    name: 'everything',
    args: ['--import', join(ROOT, 'bench/loopback-only.mjs'), everything, 'streamableHttp'],
    env: { PORT: String(everythingPort) },
    port: new RegExp(`(${everythingPort})`),
    tool: 'echo',
    arguments: { message: 'hi' },
  },
];

async function startHttp(s) {
  const child = spawn(process.execPath, node(s.args), { env: { ...env, ...s.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk) => {
      // Only the start is searched; server-everything warns on stderr for every call past 1,500.
      if (text.length < 4096) text += chunk;
      const match = s.port.exec(text);
      if (match) resolve(Number(match[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => reject(new Error(`${s.name} exited ${code}: ${text}`)));
  });
  const client = await connectHttp(`http://127.0.0.1:${port}/mcp`);
  return { pid: child.pid, client, stop: () => child.kill('SIGTERM') };
}

async function startStdio(s) {
  const c = await connectStdio(process.execPath, node(s.args), { ...env, ...s.env });
  return { pid: c.pid, client: c.client, stop: () => c.client.close() };
}

const selfMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const only = opts.only?.split(',');
const list = (opts.http ? HTTP : STDIO).filter((s) => !only || only.includes(s.name));
const inFlight = Number(opts.in);
const calls = Number(opts.calls);
const live = [];
for (const s of list) {
  const server = await (opts.http ? startHttp(s) : startStdio(s));
  const call = () => server.client.callTool({ name: s.tool, arguments: s.arguments }, SLOW);
  const probe = await call();
  if (probe.isError) throw new Error(`${s.name}: ${JSON.stringify(probe).slice(0, 300)}`);
  for (let i = 0; i < 500; i += 1) await call();
  live.push({ name: s.name, server, call, cps: [], server_us: [], client_us: [] });
}
for (let r = 0; r < Number(opts.rounds); r += 1) {
  for (const s of live) {
    const server0 = processCpuMs(s.server.pid);
    const client0 = selfMs();
    const started = performance.now();
    let left = calls;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (left-- > 0) await s.call();
      }),
    );
    const ms = performance.now() - started;
    s.cps.push((calls / ms) * 1000);
    s.server_us.push(((processCpuMs(s.server.pid) - server0) / calls) * 1000);
    s.client_us.push(((selfMs() - client0) / calls) * 1000);
  }
}
const rows = live.map((s) => ({
  server: s.name,
  'calls/s': Math.round(median(s.cps)),
  'server CPU µs/call': Math.round(median(s.server_us)),
  'client CPU µs/call': Math.round(median(s.client_us)),
  rounds: s.cps.map(Math.round).join(' '),
}));
for (const s of live) await s.server.stop();
process.stdout.write(
  `${opts.http ? 'HTTP' : 'stdio'}, ${inFlight} in flight, ${calls} calls × ${opts.rounds} rounds, ${opts.file}\n${JSON.stringify(rows, null, 1)}\n`,
);
