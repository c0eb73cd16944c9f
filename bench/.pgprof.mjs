import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, seed } from './postgres.mjs';
import { connectRaw } from './raw-client.mjs';
import { AH } from './lib.mjs';
const server = await startServer();
const scratch = mkdtempSync(join(tmpdir(), 'pgp-'));
const config = { host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'postgres' };
await seed(config);
const env = { ...process.env, AH_CONFIG_DIR: join(scratch, 'c'), HOME: scratch, PGPASSWORD: server.password };
const extra = process.env.NODEFLAGS ? process.env.NODEFLAGS.split(" ") : [];
const prof = process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/pgprof'] : [];
const ah = await connectRaw(process.execPath, [...extra, ...prof, AH, '--cwd', scratch, 'mcp', 'serve'], env);
const conn = { host: '127.0.0.1', port: server.port, user: 'postgres', database: 'postgres' };
const sql = process.env.SQL ?? 'select * from bench order by c1';
const times = [];
for (let i = 0; i < 40; i++) {
  const t = process.hrtime.bigint();
  const r = await ah.request('tools/call', { name: 'ah.postgres.query', arguments: { ...conn, sql } });
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
  if (i === 0) console.log('bytes', r.bytes);
}
times.sort((a, b) => a - b);
console.log('median', times[20], 'min', times[0]);
await ah.close();
await server.stop();
