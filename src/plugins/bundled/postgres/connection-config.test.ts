import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConnection } from './connection-config.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function home(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'ah-pgconf-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    chmodSync(join(dir, name), 0o600);
  }
  return dir;
}

const record = (values: Record<string, string>) => ({ database: { id: 'r', kind: 'postgres', values } });

describe('connection resolution', () => {
  it('takes inputs, then the record, then the service file, then PG* variables, then defaults', async () => {
    const h = home({ '.pg_service.conf': '[svc]\nhost=svc-host\nport=7000\ndbname=svc-db\nuser=svc-user\nsslmode=require\n' });
    const env = {
      HOME: h,
      PGHOST: 'env-host',
      PGPORT: '6000',
      PGUSER: 'env-user',
      PGDATABASE: 'env-db',
      PGSSLMODE: 'disable',
      USER: 'os-user',
    };
    const defaults = await resolveConnection({}, { env: { USER: 'os-user' }, credentials: {} });
    expect(defaults).toMatchObject({ host: 'localhost', port: 5432, user: 'os-user', database: 'os-user', sslmode: 'prefer' });
    const fromEnv = await resolveConnection({}, { env, credentials: {} });
    expect(fromEnv).toMatchObject({ host: 'env-host', port: 6000, user: 'env-user', database: 'env-db', sslmode: 'disable' });
    const fromService = await resolveConnection({ service: 'svc' }, { env, credentials: {} });
    expect(fromService).toMatchObject({ host: 'svc-host', port: 7000, user: 'svc-user', database: 'svc-db', sslmode: 'require' });
    const fromRecord = await resolveConnection(
      { service: 'svc' },
      { env, credentials: record({ host: 'rec-host', user: 'rec-user', password: 'p', port: '8000' }) },
    );
    expect(fromRecord).toMatchObject({ host: 'rec-host', port: 8000, user: 'rec-user', database: 'svc-db' });
    const explicit = await resolveConnection(
      { host: 'in-host', port: 9000, user: 'in-user', database: 'in-db', sslmode: 'verify-full' },
      { env, credentials: record({ host: 'rec-host', user: 'rec-user', password: 'p' }) },
    );
    expect(explicit).toMatchObject({ host: 'in-host', port: 9000, user: 'in-user', database: 'in-db', sslmode: 'verify-full' });
  });

  it('looks the password up in order: record, password_env, service, PGPASSWORD, ~/.pgpass', async () => {
    const h = home({ '.pgpass': '*:*:*:*:from-pgpass\n', '.pg_service.conf': '[svc]\npassword=from-service\n' });
    const base = { HOME: h, PGUSER: 'u' };
    const pw = async (input: Record<string, unknown>, env: Record<string, string>, credentials = {}) =>
      (await resolveConnection(input, { env: { ...base, ...env }, credentials })).password();
    expect(await pw({}, {})).toBe('from-pgpass');
    expect(await pw({}, { PGPASSWORD: 'from-env' })).toBe('from-env');
    expect(await pw({ service: 'svc' }, { PGPASSWORD: 'from-env' })).toBe('from-service');
    expect(await pw({ service: 'svc', password_env: 'MY_PW' }, { PGPASSWORD: 'from-env', MY_PW: 'from-named-env' })).toBe('from-named-env');
    expect(await pw({ service: 'svc' }, { PGPASSWORD: 'from-env' }, record({ password: 'from-record' }))).toBe('from-record');
    expect(await pw({}, { HOME: home() })).toBeNull();
  });

  // password_env over MCP never reaches here: the host refuses a CLI-only option (test/catalog.test.ts).
  it('refuses password_env beside a credential record, and bad values without echoing them', async () => {
    await expect(
      resolveConnection({ password_env: 'X' }, { env: { X: 'v' }, credentials: record({ password: 'p' }) }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(resolveConnection({ password_env: 'UNSET_VAR' }, { env: {}, credentials: {} })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(resolveConnection({}, { env: { PGPORT: 'http' }, credentials: {} })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(resolveConnection({}, { env: { PGSSLMODE: 'sometimes' }, credentials: {} })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
