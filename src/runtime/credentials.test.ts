import { describe, expect, it } from 'vitest';
import type { CommandDescriptor } from '../catalog/descriptor.js';
import { AhError } from '../errors.js';
import type { SecretRecord, VaultStore } from '../secrets/types.js';
import { checkCredentialIds, credentialParagraph, credentialsSchema, resolveCredentials } from './credentials.js';

const descriptor = {
  id: 'demo.fetch',
  credentialSlots: [
    { name: 'token', acceptedKinds: ['github-token'], required: true, description: 'A token.' },
    { name: 'basic', acceptedKinds: ['http-basic'], required: false, description: 'Basic auth.' },
  ],
} as unknown as CommandDescriptor;

const noSlots = { id: 'demo.plain' } as unknown as CommandDescriptor;

/** Only read() matters to resolution; the rest of the store is out of scope for these tests. */
function vaultWith(records: SecretRecord[], failure?: string): VaultStore {
  const unused = () => Promise.reject(new Error('not used'));
  return {
    path: '/unused',
    init: unused,
    list: unused,
    add: unused,
    edit: unused,
    remove: unused,
    async read(id) {
      if (failure) throw new AhError({ code: failure, message: `vault failure for record ${id}` });
      const found = records.find((r) => r.id === id);
      if (!found) throw new AhError({ code: 'VAULT_SECRET_NOT_FOUND', message: `no record '${id}'` });
      return found;
    },
  };
}

const ghRecord: SecretRecord = { id: 'gh-main', kind: 'github-token', label: 'GH', description: null, values: { token: 'ghp_x' } };

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as AhError).code;
  }
  return undefined;
}

async function rejection(promise: Promise<unknown>): Promise<AhError> {
  try {
    await promise;
  } catch (error) {
    return error as AhError;
  }
  throw new Error('expected a rejection');
}

describe('checkCredentialIds', () => {
  it('accepts a mapping of known slots to ids', () => {
    expect(checkCredentialIds(descriptor, { token: 'gh-main' })).toEqual({ token: 'gh-main' });
    expect(checkCredentialIds(descriptor, { token: 'a', basic: 'b' })).toEqual({ token: 'a', basic: 'b' });
  });

  it('reports a missing required slot as SECRET_REQUIRED', () => {
    expect(codeOf(() => checkCredentialIds(descriptor, undefined))).toBe('SECRET_REQUIRED');
    expect(codeOf(() => checkCredentialIds(descriptor, { basic: 'b' }))).toBe('SECRET_REQUIRED');
  });

  it('rejects unknown slots, bad ids, non-objects and credentials for slot-less commands', () => {
    expect(codeOf(() => checkCredentialIds(descriptor, { token: 'a', other: 'x' }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => checkCredentialIds(descriptor, { token: '' }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => checkCredentialIds(descriptor, { token: 7 }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => checkCredentialIds(descriptor, ['token']))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => checkCredentialIds(noSlots, { token: 'a' }))).toBe('INVALID_ARGUMENT');
    expect(checkCredentialIds(noSlots, undefined)).toEqual({});
  });
});

describe('resolveCredentials', () => {
  it('hands over the record values by slot', async () => {
    const resolved = await resolveCredentials(descriptor, { token: 'gh-main' }, vaultWith([ghRecord]));
    expect(resolved).toEqual({ token: { id: 'gh-main', kind: 'github-token', values: { token: 'ghp_x' } } });
    expect(Object.isFrozen(resolved)).toBe(true);
  });

  it('maps a missing record or vault to SECRET_NOT_FOUND without echoing the id', async () => {
    for (const vault of [vaultWith([]), vaultWith([], 'VAULT_NOT_INITIALIZED')]) {
      const error = await rejection(resolveCredentials(descriptor, { token: 'secret-project-id' }, vault));
      expect(error.code).toBe('SECRET_NOT_FOUND');
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain('secret-project-id');
    }
  });

  it('rejects a record of the wrong kind as SECRET_KIND_MISMATCH', async () => {
    const basic: SecretRecord = { id: 'b1', kind: 'http-basic', label: 'b', description: null, values: { username: 'u', password: 'p' } };
    const error = await rejection(resolveCredentials(descriptor, { token: 'b1' }, vaultWith([basic])));
    expect(error.code).toBe('SECRET_KIND_MISMATCH');
    expect(error.message).not.toContain('b1');
  });

  it('keeps the vault codes for a locked vault or a missing key, without the record id', async () => {
    for (const code of ['VAULT_LOCKED', 'VAULT_KEY_UNAVAILABLE']) {
      const error = await rejection(resolveCredentials(descriptor, { token: 'hidden-id' }, vaultWith([], code)));
      expect(error.code).toBe(code);
      expect(error.message).not.toContain('hidden-id');
    }
  });
});

describe('tool surface', () => {
  it('describes the slots with kinds and the secrets.list hint, and a closed ids-only schema', () => {
    const paragraph = credentialParagraph(descriptor.credentialSlots ?? []);
    expect(paragraph).toMatch(/^Credential slots:/);
    expect(paragraph).toContain('github-token');
    expect(paragraph).toContain('ah.secrets.list with {"kind":"github-token"}');
    const schema = credentialsSchema(descriptor.credentialSlots ?? []);
    expect(schema).toMatchObject({ type: 'object', additionalProperties: false, required: ['token'] });
    expect(Object.keys(schema.properties as object)).toEqual(['token', 'basic']);
  });
});
