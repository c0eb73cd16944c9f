/** An in-memory VaultStore with the real contract's error codes, recording every write. */
import { AhError } from '../../src/errors.js';
import type { NewSecret, SecretMetadata, SecretPatch, SecretRecord, VaultStore } from '../../src/secrets/types.js';

export function memoryVault(initial: SecretRecord[] = []) {
  const records = new Map(initial.map((r) => [r.id, r]));
  const writes: Array<{ op: 'add' | 'edit'; id: string; values: Record<string, string> }> = [];
  const meta = (r: SecretRecord): SecretMetadata => ({ id: r.id, kind: r.kind, label: r.label, description: r.description });
  const vault: VaultStore = {
    path: '/nowhere/secrets.v1.json',
    init: async () => ({ created: false }),
    list: async () => [...records.values()].map(meta),
    read: async (id) => {
      const r = records.get(id);
      if (!r) throw new AhError({ code: 'VAULT_SECRET_NOT_FOUND', message: 'no such secret' });
      return r;
    },
    add: async (s: NewSecret) => {
      // Yield so that a concurrent submission would interleave here without the mutex.
      await new Promise((r) => setTimeout(r, 5));
      if (records.has(s.id)) throw new AhError({ code: 'VAULT_SECRET_EXISTS', message: 'exists' });
      const record: SecretRecord = { id: s.id, kind: s.kind, label: s.label ?? s.id, description: s.description ?? null, values: s.values };
      records.set(s.id, record);
      writes.push({ op: 'add', id: s.id, values: s.values });
      return meta(record);
    },
    edit: async (id: string, patch: SecretPatch) => {
      const r = records.get(id);
      if (!r) throw new AhError({ code: 'VAULT_SECRET_NOT_FOUND', message: 'no such secret' });
      const next: SecretRecord = {
        ...r,
        label: patch.label ?? r.label,
        description: patch.description === undefined ? r.description : patch.description,
        values: { ...r.values, ...patch.values },
      };
      records.set(id, next);
      writes.push({ op: 'edit', id, values: patch.values ?? {} });
      return meta(next);
    },
    remove: async (id) => {
      const r = records.get(id);
      if (!r) throw new AhError({ code: 'VAULT_SECRET_NOT_FOUND', message: 'no such secret' });
      records.delete(id);
      return meta(r);
    },
  };
  return { vault, records, writes };
}
