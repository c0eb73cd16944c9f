import { describe, expect, it } from 'vitest';
import { newRecord, parseDocument, patchedRecord, serializeDocument } from './records.js';
import type { NewSecret } from './types.js';

const pg = (values: Record<string, string>, extra: Partial<NewSecret> = {}): NewSecret => ({
  id: 'db',
  kind: 'postgres',
  values: { host: 'localhost', user: 'app', password: 'pw', ...values },
  ...extra,
});

describe('newRecord', () => {
  it('defaults the label to the id and a blank description to null', () => {
    expect(newRecord({ id: 'gh', kind: 'github-token', description: '  ', values: { token: 't' } })).toEqual({
      id: 'gh',
      kind: 'github-token',
      label: 'gh',
      description: null,
      values: { token: 't' },
    });
  });

  it('accepts every optional postgres field in range', () => {
    expect(newRecord(pg({ port: '65535', database: 'x', sslmode: 'verify-full' })).values.port).toBe('65535');
    expect(newRecord(pg({ port: '1' })).values.port).toBe('1');
  });

  it.each([
    ['a blank id', { id: '  ', kind: 'github-token', values: { token: 't' } }, 'id must not be blank'],
    ['an id with outer spaces', { id: ' a', kind: 'github-token', values: { token: 't' } }, 'whitespace'],
    ['an id with a newline', { id: 'a\nb', kind: 'github-token', values: { token: 't' } }, 'printable'],
    ['a blank label', { id: 'a', kind: 'github-token', label: ' ', values: { token: 't' } }, 'label must not be blank'],
    ['an unknown kind', { id: 'a', kind: 'aws', values: {} }, 'unknown secret kind'],
    ['a missing required field', { id: 'a', kind: 'http-basic', values: { username: 'u' } }, "requires field 'password'"],
    ['an unknown field', { id: 'a', kind: 'github-token', values: { token: 't', user: 'u' } }, "'user' is not a field"],
    ['a __proto__ field', { id: 'a', kind: 'github-token', values: JSON.parse('{"token":"t","__proto__":"x"}') }, "'__proto__'"],
    ['an empty value', { id: 'a', kind: 'github-token', values: { token: '' } }, "'token' must not be empty"],
    ['a non-string value', { id: 'a', kind: 'github-token', values: { token: 5 } }, 'must be text'],
    ['port 0', pg({ port: '0' }), "'port'"],
    ['port 65536', pg({ port: '65536' }), "'port'"],
    ['port -1', pg({ port: '-1' }), "'port'"],
    ['port 5432.0', pg({ port: '5432.0' }), "'port'"],
    ['a bad sslmode', pg({ sslmode: 'on' }), "'sslmode'"],
    ['postgres without host', { id: 'a', kind: 'postgres', values: { user: 'u', password: 'p' } }, "'host'"],
  ])('refuses %s with VAULT_INVALID_SECRET', (_name, secret, message) => {
    expect(() => newRecord(secret as NewSecret)).toThrow(
      expect.objectContaining({ code: 'VAULT_INVALID_SECRET', message: expect.stringContaining(message) }),
    );
  });

  it('never repeats a value in a validation message', () => {
    const planted = 'planted-port-value';
    try {
      newRecord(pg({ port: planted }));
      expect.unreachable();
    } catch (error) {
      expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain(planted);
    }
  });
});

describe('patchedRecord', () => {
  const base = newRecord(pg({ port: '5432' }, { label: 'DB', description: 'main' }));

  it('keeps fields that are absent or empty and replaces the others', () => {
    const next = patchedRecord(base, { values: { password: 'new', host: '' } });
    expect(next.values).toEqual({ ...base.values, password: 'new' });
    expect(next.label).toBe('DB');
    expect(next.description).toBe('main');
  });

  it('changes and clears metadata', () => {
    expect(patchedRecord(base, { label: 'New', description: null })).toMatchObject({ label: 'New', description: null });
  });

  it('revalidates the merged record', () => {
    expect(() => patchedRecord(base, { values: { port: '99999' } })).toThrow(expect.objectContaining({ code: 'VAULT_INVALID_SECRET' }));
    expect(() => patchedRecord(base, { values: { token: 'x' } })).toThrow(expect.objectContaining({ code: 'VAULT_INVALID_SECRET' }));
    expect(() => patchedRecord(base, { label: '' })).toThrow(expect.objectContaining({ code: 'VAULT_INVALID_SECRET' }));
  });
});

describe('documents', () => {
  it('round-trips, including an id named __proto__', () => {
    const doc = new Map([['__proto__', newRecord({ id: '__proto__', kind: 'github-token', values: { token: 't' } })]]);
    const back = parseDocument(serializeDocument(doc));
    expect([...back.keys()]).toEqual(['__proto__']);
    expect(back.get('__proto__')?.values).toEqual({ token: 't' });
  });

  it.each([
    ['not JSON', 'nope'],
    ['no secrets map', '{}'],
    ['a record under another id', '{"secrets":{"a":{"id":"b","kind":"github-token","label":"b","description":null,"values":{}}}}'],
    ['an unknown kind', '{"secrets":{"a":{"id":"a","kind":"x","label":"a","description":null,"values":{}}}}'],
    ['a non-string value', '{"secrets":{"a":{"id":"a","kind":"github-token","label":"a","description":null,"values":{"token":1}}}}'],
  ])('treats a decrypted document with %s as VAULT_LOCKED', (_name, text) => {
    expect(() => parseDocument(Buffer.from(text))).toThrow(expect.objectContaining({ code: 'VAULT_LOCKED' }));
  });
});
