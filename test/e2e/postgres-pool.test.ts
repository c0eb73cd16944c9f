/**
 * Connections the MCP server keeps between read-only calls (src/plugins/bundled/postgres/pool.ts),
 * on a real PostgreSQL 18: a kept connection is reused, comes back reset (settings changed by the
 * call before are gone, the session is read-only again), is never handed to a call with another
 * password, is left out of postgres.activity, and is replaced when the server ends it.
 */
import { randomBytes } from 'node:crypto';
import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keySourceFromHex } from '../../src/secrets/keys.js';
import { createVault } from '../../src/secrets/vault.js';
import { isolatedEnv } from '../helpers/cli.js';
import { connectStdio, type StdioServer } from '../helpers/mcp.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';

const KEY = randomBytes(32).toString('hex');
const PASSWORD = `pw-pool-${randomBytes(8).toString('hex')}`;

let pg: TestPostgres;
let stdio: StdioServer;
let proxy: Server;
/** Client sides of the proxy's connections: a poisoned one answers its next bytes with a TCP reset. */
const proxied = new Set<Socket>();
const poisoned = new WeakSet<Socket>();

/** A TCP proxy in front of the server, to break a kept connection the way a network does. */
function startProxy(target: number): Promise<number> {
  proxy = createServer((client) => {
    const upstream = netConnect({ host: '127.0.0.1', port: target });
    proxied.add(client);
    client.on('data', (chunk) => {
      if (poisoned.has(client)) {
        upstream.destroy();
        client.resetAndDestroy();
      } else upstream.write(chunk);
    });
    upstream.pipe(client);
    const drop = () => {
      proxied.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve((proxy.address() as { port: number }).port)));
}

type Result = { isError?: boolean; structuredContent?: { rows?: Record<string, unknown>[] }; _meta?: Record<string, unknown> };

async function call(name: string, args: Record<string, unknown>, client: Client = stdio.client): Promise<Result> {
  return (await client.callTool({ name: `ah.${name}`, arguments: args })) as Result;
}

function code(result: Result): string | undefined {
  return (result._meta?.['dev.aihelper/diagnostic'] as { code?: string } | undefined)?.code;
}

async function row(sql: string, record = 'pooled'): Promise<Record<string, unknown>> {
  const result = await call('postgres.query', { sql, credentials: { database: record } });
  expect(result.isError, JSON.stringify(result._meta)).toBeFalsy();
  return result.structuredContent?.rows?.[0] as Record<string, unknown>;
}

beforeAll(async () => {
  pg = await startPostgres();
  await pg.sql(`create role pooler login password '${PASSWORD}'`);
  await pg.sql('create database pooldb owner pooler');
  await pg.sql('grant pg_read_all_stats to pooler');
  await pg.sql('create sequence public.ticket', [], 'pooldb');
  await pg.sql('alter sequence public.ticket owner to pooler', [], 'pooldb');
  const ah = isolatedEnv({ AH_VAULT_MASTER_KEY: KEY }, { suite: true });
  const vault = createVault({ configDir: ah.configDir, key: keySourceFromHex(KEY) });
  await vault.init();
  const base = { host: '127.0.0.1', port: String(pg.port), user: 'pooler', database: 'pooldb', sslmode: 'disable' };
  await vault.add({ id: 'pooled', kind: 'postgres', values: { ...base, password: PASSWORD } });
  await vault.add({ id: 'wrong', kind: 'postgres', values: { ...base, password: 'not-the-password' } });
  const proxyPort = await startProxy(pg.port);
  await vault.add({ id: 'proxied', kind: 'postgres', values: { ...base, port: String(proxyPort), password: PASSWORD } });
  stdio = await connectStdio([], { env: ah.env });
}, 60_000);

afterAll(async () => {
  await stdio?.close();
  for (const socket of proxied) socket.destroy();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  await pg?.stop();
});

describe('kept connections', () => {
  it('reuses the connection of the call before, reset to its start-up settings', async () => {
    const first = await row(
      "select pg_backend_pid() as pid, set_config('application_name', 'changed', false) as app, set_config('default_transaction_read_only', 'off', false) as ro",
    );
    expect(first).toMatchObject({ app: 'changed', ro: 'off' });
    const second = await row(
      "select pg_backend_pid() as pid, current_setting('application_name') as app, current_setting('default_transaction_read_only') as ro",
    );
    expect(second).toEqual({ pid: first.pid, app: 'ah', ro: 'on' });
    // Read-only again, enforced by the server.
    const write = await call('postgres.query', { sql: "select nextval('public.ticket')", credentials: { database: 'pooled' } });
    expect(code(write)).toBe('POSTGRES_QUERY_NOT_READ_ONLY');
  });

  it('never hands a kept connection to a call with another password', async () => {
    await row('select 1 as one');
    const wrong = await call('postgres.query', { sql: 'select 1 as one', credentials: { database: 'wrong' } });
    expect(code(wrong)).toBe('POSTGRES_AUTH_FAILED');
    const ping = await call('postgres.ping', { credentials: { database: 'wrong' } });
    expect(code(ping)).toBe('POSTGRES_AUTH_FAILED');
  });

  it('postgres.activity leaves the kept connections out', async () => {
    // Two calls at once: two connections, both kept afterwards. Each holds its connection for
    // 300 ms, so the second cannot reuse the first's even when a loaded machine starts it late.
    const held = 'select pg_backend_pid() as pid from pg_sleep(0.3)';
    const pids = (await Promise.all([row(held), row(held)])).map((r) => r.pid);
    expect(new Set(pids).size).toBe(2);
    const listed = await call('postgres.activity', { credentials: { database: 'pooled' } });
    expect(listed.isError).toBeFalsy();
    const seen = (listed.structuredContent?.rows ?? []).map((r) => r.pid);
    for (const pid of pids) expect(seen).not.toContain(pid);
    // They are there: kept, not closed.
    const alive = await pg.sql<{ pid: number }>("select pid from pg_stat_activity where pid = any($1::int[]) and application_name = 'ah'", [
      pids,
    ]);
    expect(alive.map((r) => r.pid).sort()).toEqual([...pids].sort());
  });

  it('replaces a kept connection the server ended', async () => {
    const before = await row('select pg_backend_pid() as pid');
    await pg.sql('select pg_terminate_backend($1)', [before.pid]);
    const deadline = Date.now() + 5000;
    while ((await pg.sql('select 1 from pg_stat_activity where pid = $1', [before.pid])).length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const after = await row('select pg_backend_pid() as pid');
    expect(after.pid).not.toBe(before.pid);
  });

  it('retries on a new connection when the kept one turns out broken', async () => {
    const before = await row('select pg_backend_pid() as pid', 'proxied');
    // The kept connection looks open to ah; its next bytes get a TCP reset.
    for (const socket of proxied) poisoned.add(socket);
    const after = await row('select pg_backend_pid() as pid', 'proxied');
    expect(after.pid).not.toBe(before.pid);
  });
});
