import { describe, expect, it } from 'vitest';
import type { AhError } from '../errors.js';
import { CAPABILITY_TTL_MS, CapabilityStore, createSetupService, formFields, MAX_CAPABILITIES, Mutex } from './setup.js';
import { memoryVault } from '../../test/helpers/memory-vault.js';
import { KIND_FIELDS } from './types.js';

async function code(promise: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    return (error as AhError).code;
  }
  return 'OK';
}

const gh = { id: 'gh', kind: 'github-token' as const, label: 'GitHub', description: null, values: { token: 'old' } };

describe('CapabilityStore', () => {
  it('mints 64 hex chars and peeks without consuming', () => {
    const store = new CapabilityStore();
    const { capability } = store.mint({ action: 'create', id: 'a', kind: 'github-token' });
    expect(capability).toMatch(/^[0-9a-f]{64}$/);
    expect(store.peek(capability)).toEqual({ action: 'create', id: 'a', kind: 'github-token' });
    expect(store.peek(capability)).toBeDefined();
    store.consume(capability);
    expect(store.peek(capability)).toBeUndefined();
  });

  it('expires after ten minutes on the injected clock', () => {
    let now = 1_000_000;
    const store = new CapabilityStore({ now: () => now });
    const { capability } = store.mint({ action: 'create', id: 'a', kind: 'github-token' });
    now += CAPABILITY_TTL_MS - 1;
    expect(store.peek(capability)).toBeDefined();
    now += 1;
    expect(store.peek(capability)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('keeps at most 128 live: the 129th evicts the oldest', () => {
    let now = 0;
    const store = new CapabilityStore({ now: () => now });
    const minted: string[] = [];
    for (let i = 0; i < MAX_CAPABILITIES; i++) {
      now += 1;
      minted.push(store.mint({ action: 'create', id: `s${i}`, kind: 'github-token' }).capability);
    }
    expect(store.size).toBe(128);
    const extra = store.mint({ action: 'create', id: 'extra', kind: 'github-token' }).capability;
    expect(store.size).toBe(128);
    expect(store.peek(minted[0]!)).toBeUndefined();
    expect(store.peek(minted[1]!)?.id).toBe('s1');
    expect(store.peek(extra)?.id).toBe('extra');
  });

  it('purges expired capabilities before evicting live ones', () => {
    let now = 0;
    const store = new CapabilityStore({ now: () => now, max: 3 });
    const old = store.mint({ action: 'create', id: 'old', kind: 'github-token' }).capability;
    now = CAPABILITY_TTL_MS / 2;
    const a = store.mint({ action: 'create', id: 'a', kind: 'github-token' }).capability;
    const b = store.mint({ action: 'create', id: 'b', kind: 'github-token' }).capability;
    now = CAPABILITY_TTL_MS; // `old` is expired now, a and b are not
    const c = store.mint({ action: 'create', id: 'c', kind: 'github-token' }).capability;
    expect(store.peek(old)).toBeUndefined();
    expect([a, b, c].map((x) => store.peek(x)?.id)).toEqual(['a', 'b', 'c']);
  });

  it('rejects values that are not capability-shaped', () => {
    const store = new CapabilityStore();
    expect(store.peek('')).toBeUndefined();
    expect(store.peek('x'.repeat(64))).toBeUndefined();
  });
});

describe('Mutex', () => {
  it('runs sections one at a time and survives a failing one', async () => {
    const mutex = new Mutex();
    const order: string[] = [];
    const slow = mutex.run(async () => {
      order.push('a1');
      await new Promise((r) => setTimeout(r, 10));
      order.push('a2');
      throw new Error('boom');
    });
    const fast = mutex.run(async () => order.push('b'));
    await expect(slow).rejects.toThrow('boom');
    await fast;
    expect(order).toEqual(['a1', 'a2', 'b']);
  });
});

describe('setup service', () => {
  it('validates capability requests', async () => {
    const { vault } = memoryVault([gh]);
    const setup = createSetupService(() => vault);
    expect(await code(setup.mint(null))).toBe('VAULT_SETUP_REQUEST_INVALID');
    expect(await code(setup.mint({ action: 'delete', id: 'x' }))).toBe('VAULT_SETUP_REQUEST_INVALID');
    expect(await code(setup.mint({ action: 'create', id: 'x' }))).toBe('VAULT_SETUP_REQUEST_INVALID');
    expect(await code(setup.mint({ action: 'create', id: 'x', kind: 'ftp' }))).toBe('VAULT_SETUP_REQUEST_INVALID');
    expect(await code(setup.mint({ action: 'create', id: '', kind: 'github-token' }))).toBe('VAULT_SETUP_REQUEST_INVALID');
    expect(await code(setup.mint({ action: 'create', id: ' padded ', kind: 'github-token' }))).toBe('VAULT_INVALID_SECRET');
    expect(await code(setup.mint({ action: 'create', id: 'x', kind: 'github-token', token: 'v' }))).toBe('VAULT_SETUP_REQUEST_INVALID');
    expect(await code(setup.mint({ action: 'create', id: 'gh', kind: 'github-token' }))).toBe('VAULT_SECRET_EXISTS');
    expect(await code(setup.mint({ action: 'edit', id: 'nope' }))).toBe('VAULT_SECRET_NOT_FOUND');
    expect(await code(setup.mint({ action: 'edit', id: 'gh', kind: 'gitlab-token' }))).toBe('VAULT_SETUP_REQUEST_INVALID');
  });

  it('binds an edit capability to the stored kind and edits, never adds', async () => {
    const { vault, writes, records } = memoryVault([gh]);
    const setup = createSetupService(() => vault);
    const { capability, target } = await setup.mint({ action: 'edit', id: 'gh', label: 'New label' });
    expect(target).toEqual({ action: 'edit', id: 'gh', kind: 'github-token', label: 'New label' });
    const saved = await setup.submit(capability, new URLSearchParams({ token: 'fresh' }));
    expect(saved.secret).toEqual({ id: 'gh', kind: 'github-token', label: 'New label', description: null });
    expect(writes).toEqual([{ op: 'edit', id: 'gh', values: { token: 'fresh' } }]);
    expect(records.get('gh')?.values.token).toBe('fresh');
  });

  it('edit keeps stored values for empty fields and refuses an empty change', async () => {
    const { vault, writes } = memoryVault([gh]);
    const setup = createSetupService(() => vault);
    const { capability } = await setup.mint({ action: 'edit', id: 'gh' });
    expect(await code(setup.submit(capability, new URLSearchParams({ token: '' })))).toBe('VAULT_SETUP_SUBMISSION_INVALID');
    expect(writes).toEqual([]);
    const relabel = await setup.mint({ action: 'edit', id: 'gh', label: 'L' });
    await setup.submit(relabel.capability, new URLSearchParams({ token: '' }));
    expect(writes).toEqual([{ op: 'edit', id: 'gh', values: {} }]);
  });

  it('a create capability cannot be steered to another record, kind or field', async () => {
    const { vault, writes } = memoryVault([gh]);
    const setup = createSetupService(() => vault);
    const { capability } = await setup.mint({ action: 'create', id: 'new', kind: 'github-token' });
    const forms: Array<Record<string, string>> = [
      { token: 't', id: 'gh' },
      { token: 't', kind: 'postgres' },
      { token: 't', action: 'edit' },
      { password: 'p' },
    ];
    for (const form of forms) {
      expect(await code(setup.submit(capability, new URLSearchParams(form)))).toBe('VAULT_SETUP_SUBMISSION_INVALID');
    }
    expect(await code(setup.submit(capability, new URLSearchParams('token=a&token=b')))).toBe('VAULT_SETUP_SUBMISSION_INVALID');
    expect(writes).toEqual([]);
    // Still live after failures: only success consumes.
    expect(setup.inspect(capability).id).toBe('new');
  });

  it('create requires the required fields and names them', async () => {
    const { vault } = memoryVault();
    const setup = createSetupService(() => vault);
    const { capability } = await setup.mint({ action: 'create', id: 'db', kind: 'postgres', description: 'prod' });
    const error = await setup.submit(capability, new URLSearchParams({ host: 'h', port: '', password: '' })).catch((e: unknown) => e);
    expect((error as AhError).code).toBe('VAULT_SETUP_SUBMISSION_INVALID');
    expect((error as { fields: string[] }).fields).toEqual(['user', 'password']);
    const ok = await setup.submit(capability, new URLSearchParams({ host: 'h', user: 'u', password: 'p', port: '' }));
    expect(ok.secret).toEqual({ id: 'db', kind: 'postgres', label: 'db', description: 'prod' });
  });

  it('consumes on success only: reuse is rejected, a vault failure leaves the capability live', async () => {
    const { vault, records } = memoryVault();
    const setup = createSetupService(() => vault);
    const { capability } = await setup.mint({ action: 'create', id: 'k', kind: 'ssh-key' });
    records.set('k', { ...gh, id: 'k' }); // someone else took the id in the meantime
    expect(await code(setup.submit(capability, new URLSearchParams({ private_key: 'x' })))).toBe('VAULT_SECRET_EXISTS');
    expect(setup.inspect(capability).id).toBe('k');
    records.delete('k');
    const saved = await setup.submit(capability, new URLSearchParams({ private_key: 'a\r\nb\r\n' }));
    expect(saved.secret.id).toBe('k');
    expect(records.get('k')?.values.private_key).toBe('a\nb\n');
    expect(await code(() => setup.inspect(capability))).toBe('VAULT_SETUP_CAPABILITY_INVALID');
    expect(await code(setup.submit(capability, new URLSearchParams({ private_key: 'x' })))).toBe('VAULT_SETUP_CAPABILITY_INVALID');
  });

  it('serializes a double submission into one write', async () => {
    const { vault, writes } = memoryVault();
    const setup = createSetupService(() => vault);
    const { capability } = await setup.mint({ action: 'create', id: 'twice', kind: 'github-token' });
    const form = new URLSearchParams({ token: 't' });
    const results = await Promise.all([code(setup.submit(capability, form)), code(setup.submit(capability, form))]);
    expect(results).toEqual(['OK', 'VAULT_SETUP_CAPABILITY_INVALID']);
    expect(writes).toHaveLength(1);
  });

  it('an expired capability is rejected on the injected clock', async () => {
    let now = 0;
    const { vault } = memoryVault();
    const setup = createSetupService(() => vault, { now: () => now });
    const { capability } = await setup.mint({ action: 'create', id: 'late', kind: 'github-token' });
    now = CAPABILITY_TTL_MS;
    expect(await code(setup.submit(capability, new URLSearchParams({ token: 't' })))).toBe('VAULT_SETUP_CAPABILITY_INVALID');
  });

  it('orders form fields as people type them and covers every kind field', () => {
    expect(formFields('postgres')).toEqual(['host', 'port', 'database', 'user', 'password', 'sslmode']);
    for (const [kind, spec] of Object.entries(KIND_FIELDS)) {
      expect(new Set(formFields(kind as keyof typeof KIND_FIELDS))).toEqual(new Set([...spec.required, ...spec.optional]));
    }
  });
});
