import { startServer, seed } from './postgres.mjs';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { spawnSync } from 'node:child_process';
const server = await startServer();
const config = { host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'postgres' };
await seed(config);
const raw = { getTypeParser: () => (s) => s };
const sql = 'select * from bench order by c1';
const ms = (a) => (Number(process.hrtime.bigint() - a) / 1e6);
const res = {};
const add = (k, v) => (res[k] ??= []).push(v);
for (let i = 0; i < 15; i++) {
  let t = process.hrtime.bigint();
  const c = new pg.Client({ ...config, types: raw });
  await c.connect(); add('connect', ms(t));
  t = process.hrtime.bigint(); await c.query('select 1'); add('select1', ms(t));
  t = process.hrtime.bigint(); await c.query({ text: sql, rowMode: 'array' }); add('plain query raw', ms(t));
  t = process.hrtime.bigint(); await c.query('begin read only'); const cur = c.query(new Cursor(sql, undefined, { rowMode: 'array', types: raw }));
  let n = 0; for (const b of [256, 1024, 4096, 8192]) { const r = await cur.read(b); n += r.length; if (r.length < b) break; } await cur.close(); await c.query('commit'); add('cursor 4 batches', ms(t));
  t = process.hrtime.bigint(); await c.query('begin read only'); const cur2 = c.query(new Cursor(sql, undefined, { rowMode: 'array', types: raw }));
  await cur2.read(100001); await cur2.close(); await c.query('commit'); add('cursor 1 batch', ms(t));
  t = process.hrtime.bigint(); await c.end(); add('end', ms(t));
  t = process.hrtime.bigint();
  spawnSync('/usr/bin/psql', ['-X', '--csv', '-h', '127.0.0.1', '-p', String(server.port), '-U', 'postgres', '-d', 'postgres', '-c', 'select 1'], { env: { ...process.env, PGPASSWORD: server.password } }); add('psql select1', ms(t));
  t = process.hrtime.bigint();
  spawnSync('/usr/bin/psql', ['-X', '--csv', '-h', '127.0.0.1', '-p', String(server.port), '-U', 'postgres', '-d', 'postgres', '-c', sql], { env: { ...process.env, PGPASSWORD: server.password }, maxBuffer: 1 << 28 }); add('psql 10k', ms(t));
  t = process.hrtime.bigint();
  spawnSync('/usr/bin/psql', ['-X', '--csv', '-h', '127.0.0.1', '-p', String(server.port), '-U', 'postgres', '-d', 'postgres', '-c', sql], { env: { ...process.env, PGPASSWORD: 'wrong' }, maxBuffer: 1 << 28 }); add('psql wrongpw', ms(t));
}
for (const [k, v] of Object.entries(res)) { v.sort((a, b) => a - b); console.log(k.padEnd(20), v[Math.floor(v.length / 2)].toFixed(1)); }
await server.stop();
