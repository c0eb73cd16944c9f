import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { matchPgpass, pgpassPassword, splitPgpassLine } from './pgpass.js';

const target = { host: 'db.local', port: 5432, database: 'app', user: 'alice' };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('pgpass', () => {
  it('splits fields with \\: and \\\\ escapes; the password keeps its colons', () => {
    expect(splitPgpassLine('h:1:d:u:p:w')).toEqual(['h', '1', 'd', 'u', 'p:w']);
    expect(splitPgpassLine('h\\:x:1:d:u:a\\\\b')).toEqual(['h:x', '1', 'd', 'u', 'a\\b']);
    expect(splitPgpassLine('too:few')).toBeNull();
  });

  it('returns the first matching line, with * wildcards; a socket host matches localhost', () => {
    const text = ['# comment', 'db.local:5432:other:alice:no', 'db.local:*:app:alice:yes', '*:*:*:*:fallback'].join('\n');
    expect(matchPgpass(text, target)).toBe('yes');
    expect(matchPgpass(text, { ...target, user: 'bob' })).toBe('fallback');
    expect(matchPgpass('localhost:5432:*:*:sock', { ...target, host: '/var/run/postgresql' })).toBe('sock');
    expect(matchPgpass('x:1:y:z:w', target)).toBeNull();
  });

  it('reads PGPASSFILE or ~/.pgpass and ignores a file others can read', async () => {
    const home = mkdtempSync(join(tmpdir(), 'ah-pgpass-'));
    dirs.push(home);
    const file = join(home, '.pgpass');
    writeFileSync(file, '*:*:*:alice:secret\n');
    chmodSync(file, 0o600);
    expect(await pgpassPassword(target, {}, home)).toBe('secret');
    expect(await pgpassPassword(target, { PGPASSFILE: join(home, 'none') }, home)).toBeNull();
    chmodSync(file, 0o640);
    expect(await pgpassPassword(target, {}, home)).toBeNull();
    expect(await pgpassPassword(target, {}, null)).toBeNull();
  });
});
