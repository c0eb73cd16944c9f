/**
 * sslmode against a real TLS-only PostgreSQL (plain TCP refused by pg_hba.conf): a CA and a server
 * certificate for "localhost" are made with openssl when the server starts. verify-ca checks the
 * chain, verify-full also the host name; require encrypts without checking; allow and prefer end up
 * on TLS; disable is refused by the server.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keySourceFromHex } from '../../src/secrets/keys.js';
import { createVault } from '../../src/secrets/vault.js';
import { type AhEnv, isolatedEnv, runAh } from '../helpers/cli.js';
import { connectStdio, type StdioServer } from '../helpers/mcp.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { suiteTempDir } from '../helpers/tmp.js';

const KEY = randomBytes(32).toString('hex');
const PASSWORD = `tls-pw-${randomBytes(8).toString('hex')}`;

let pg: TestPostgres;
let ah: AhEnv;
let stdio: StdioServer;

beforeAll(async () => {
  pg = await startPostgres({ tls: true });
  await pg.sql(`create role app login password '${PASSWORD}'`);
  ah = isolatedEnv({ AH_VAULT_MASTER_KEY: KEY, PGPASSWORD: PASSWORD, PGUSER: 'app', PGDATABASE: 'postgres' }, { suite: true });
  const vault = createVault({ configDir: ah.configDir, key: keySourceFromHex(KEY) });
  await vault.init();
  await vault.add({
    id: 'tls',
    kind: 'postgres',
    values: { host: 'localhost', port: String(pg.port), user: 'app', password: PASSWORD, database: 'postgres', sslmode: 'verify-full' },
  });
  stdio = await connectStdio([], { env: { ...ah.env, PGSSLROOTCERT: pg.tls?.caFile } });
}, 60_000);

afterAll(async () => {
  await stdio?.close();
  await pg?.stop();
});

async function ping(host: string, sslmode: string, env: NodeJS.ProcessEnv = {}) {
  const run = await runAh(['postgres', 'ping', '--host', host, '--port', String(pg.port), '--sslmode', sslmode, '--json'], {
    env: { ...ah.env, ...env },
  });
  return {
    run,
    ok: run.code === 0,
    ssl: run.code === 0 ? run.json<{ ssl: boolean }>().ssl : null,
    code: run.code === 0 ? null : run.errorJson<{ code: string }>().code,
  };
}

describe('sslmode on a TLS-only server', () => {
  it('disable is refused; allow, prefer and require connect over TLS', async () => {
    expect((await ping('127.0.0.1', 'disable')).code).toBe('POSTGRES_AUTH_FAILED');
    for (const mode of ['allow', 'prefer', 'require']) {
      const result = await ping('127.0.0.1', mode);
      expect(result.ok, `${mode}: ${result.run.stderr}`).toBe(true);
      expect(result.ssl, mode).toBe(true);
    }
  });

  it('verify-ca checks the chain against the root certificate', async () => {
    const ca = pg.tls?.caFile as string;
    const other = pg.tls?.otherCaFile as string;
    expect((await ping('127.0.0.1', 'verify-ca', { PGSSLROOTCERT: ca })).ssl).toBe(true);
    expect((await ping('127.0.0.1', 'verify-ca', { PGSSLROOTCERT: other })).code).toBe('POSTGRES_TLS_FAILED');
    // No root certificate anywhere: the system CAs, which never signed this test CA.
    expect((await ping('127.0.0.1', 'verify-ca')).code).toBe('POSTGRES_TLS_FAILED');
    expect((await ping('127.0.0.1', 'verify-ca', { PGSSLROOTCERT: join(suiteTempDir(), 'missing.crt') })).code).toBe('POSTGRES_TLS_FAILED');
  });

  it('verify-full also checks the host name', async () => {
    const ca = pg.tls?.caFile as string;
    expect((await ping('localhost', 'verify-full', { PGSSLROOTCERT: ca })).ssl).toBe(true);
    // The certificate names only "localhost": dialling 127.0.0.1 must fail verify-full, pass verify-ca.
    const mismatch = await ping('127.0.0.1', 'verify-full', { PGSSLROOTCERT: ca });
    expect(mismatch.code).toBe('POSTGRES_TLS_FAILED');
    expect(mismatch.run.stderr).toMatch(/localhost|altname|Host/i);
    expect((await ping('127.0.0.1', 'verify-ca', { PGSSLROOTCERT: ca })).ssl).toBe(true);
    expect((await ping('localhost', 'verify-full', { PGSSLROOTCERT: pg.tls?.otherCaFile })).code).toBe('POSTGRES_TLS_FAILED');
  });

  it('finds ~/.postgresql/root.crt by default', async () => {
    const home = suiteTempDir('ah-pg-tls-home-');
    mkdirSync(join(home, '.postgresql'));
    copyFileSync(pg.tls?.caFile as string, join(home, '.postgresql', 'root.crt'));
    expect((await ping('localhost', 'verify-full', { HOME: home })).ssl).toBe(true);
  });

  it('takes sslmode from the credentials.database record over MCP', async () => {
    const result = await stdio.client.callTool({ name: 'ah.postgres.info', arguments: { credentials: { database: 'tls' } } });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ ssl: true, current_user: 'app' });
    const overridden = await stdio.client.callTool({
      name: 'ah.postgres.ping',
      arguments: { host: '127.0.0.1', credentials: { database: 'tls' } },
    });
    expect((overridden._meta?.['dev.aihelper/diagnostic'] as { code?: string } | undefined)?.code).toBe('POSTGRES_TLS_FAILED');
    expect(JSON.stringify([result, overridden])).not.toContain(PASSWORD);
  });
});
