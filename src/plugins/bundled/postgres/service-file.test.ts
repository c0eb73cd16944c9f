import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadService, parseServiceSection } from './service-file.js';

const TEXT = `# services
[billing]
host = db.internal
port=6432
# a comment inside
dbname=billing
host=ignored-second-value

[other]
user=bob
`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('service file', () => {
  it('parses one section, first value of a key wins', () => {
    expect(parseServiceSection(TEXT, 'billing')).toEqual({ host: 'db.internal', port: '6432', dbname: 'billing' });
    expect(parseServiceSection(TEXT, 'other')).toEqual({ user: 'bob' });
    expect(parseServiceSection(TEXT, 'missing')).toBeNull();
  });

  it('looks in PGSERVICEFILE, else ~/.pg_service.conf, then PGSYSCONFDIR', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ah-pgservice-'));
    dirs.push(dir);
    writeFileSync(join(dir, '.pg_service.conf'), TEXT);
    writeFileSync(join(dir, 'pg_service.conf'), '[sys]\nhost=sys-host\n');
    expect(await loadService('billing', {}, dir)).toMatchObject({ host: 'db.internal' });
    expect(await loadService('sys', { PGSYSCONFDIR: dir }, dir)).toEqual({ host: 'sys-host' });
    expect(await loadService('other', { PGSERVICEFILE: join(dir, '.pg_service.conf') }, null)).toEqual({ user: 'bob' });
    await expect(loadService('nope', {}, dir)).rejects.toMatchObject({ code: 'POSTGRES_SERVICE_NOT_FOUND' });
  });
});
