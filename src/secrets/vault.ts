/**
 * The encrypted vault file `<config root>/secrets.v1.json`. Reads take the file as it is (writes
 * replace it atomically, so a reader sees the old or the new document); every mutation re-reads,
 * changes and rewrites it while holding the cross-process lock `secrets.v1.lock`, so two
 * processes adding at once both land.
 */
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AhError } from '../errors.js';
import { sweepStaleTemps, writeFileAtomic } from '../platform/atomic-write.js';
import { withFileLock } from '../platform/lock.js';
import { lockedError, open, seal } from './crypto.js';
import type { KeySource } from './keys.js';
import { metadataOf, newRecord, parseDocument, patchedRecord, serializeDocument, type VaultDocument } from './records.js';
import type { SecretKind, SecretMetadata, VaultStore } from './types.js';

const VAULT_FILE = 'secrets.v1.json';
// A dead writer's lock is taken over at once; this bounds the wait for a live one's mutation (then VAULT_BUSY).
const DEFAULT_LOCK_TIMEOUT_MS = 15_000;

function notInitialized(): AhError {
  return new AhError({
    code: 'VAULT_NOT_INITIALIZED',
    message: 'the secrets vault has not been created yet',
    hint: "Run 'ah secrets init' first.",
    operation: 'secrets.vault',
  });
}

function notFound(id: string): AhError {
  return new AhError({
    code: 'VAULT_SECRET_NOT_FOUND',
    message: `no secret with id '${id}'`,
    hint: "Run 'ah secrets list' to see the stored ids.",
    operation: 'secrets.vault',
  });
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

export function createVault(options: { configDir: string; key: KeySource; lockTimeoutMs?: number }): VaultStore {
  const path = join(options.configDir, VAULT_FILE);
  // The lock helper appends `.lock`, giving the sidecar name `secrets.v1.lock`.
  const lockTarget = join(options.configDir, 'secrets.v1');
  const lockOptions = { timeoutMs: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS, code: 'VAULT_BUSY' };

  async function exists(): Promise<boolean> {
    try {
      await stat(path);
      return true;
    } catch (error) {
      if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return false;
      throw lockedError(`the vault file cannot be examined (${errnoOf(error) ?? 'error'})`);
    }
  }

  async function load(): Promise<VaultDocument> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') throw notInitialized();
      throw lockedError(`the vault file cannot be read (${errnoOf(error) ?? 'error'})`);
    }
    return parseDocument(open(text, await options.key.load()));
  }

  async function save(doc: VaultDocument, create = false): Promise<void> {
    const key = await options.key.load({ create });
    // A writer killed mid-write leaves an encrypted snapshot that may hold records deleted since.
    await sweepStaleTemps(path, `${lockTarget}.lock`);
    try {
      await writeFileAtomic(path, seal(serializeDocument(doc), key), 0o600);
    } catch (error) {
      throw new AhError({
        code: 'VAULT_WRITE_FAILED',
        message: 'could not write the secrets vault',
        cause: `writing ${path} failed (${errnoOf(error) ?? 'error'}); the previous content is unchanged`,
        operation: 'secrets.vault',
      });
    }
  }

  /** Runs one read-modify-write under the lock. Fails fast (no lock taken) when there is no vault. */
  async function mutate<T>(change: (doc: VaultDocument) => T): Promise<T> {
    if (!(await exists())) throw notInitialized();
    return withFileLock(lockTarget, lockOptions, async () => {
      const doc = await load();
      const result = change(doc);
      await save(doc);
      return result;
    });
  }

  return {
    path,
    async init() {
      await mkdir(options.configDir, { recursive: true, mode: 0o700 });
      return withFileLock(lockTarget, lockOptions, async () => {
        if (await exists()) {
          // Never overwrite: an existing vault must open with the current key, or init fails.
          await load();
          return { created: false };
        }
        await save(new Map(), true);
        return { created: true };
      });
    },
    async list(kind?: SecretKind): Promise<SecretMetadata[]> {
      const doc = await load();
      return [...doc.values()]
        .filter((r) => kind === undefined || r.kind === kind)
        .map(metadataOf)
        .sort((a, b) => a.id.localeCompare(b.id));
    },
    async read(id) {
      const record = (await load()).get(id);
      if (!record) throw notFound(id);
      return record;
    },
    // async: a validation failure must reject the promise, not throw at the call.
    async add(secret) {
      const record = newRecord(secret);
      return mutate((doc) => {
        if (doc.has(record.id)) {
          throw new AhError({
            code: 'VAULT_SECRET_EXISTS',
            message: `a secret with id '${record.id}' already exists`,
            hint: "Use 'ah secrets edit' to change it, or choose another id.",
            operation: 'secrets.vault',
          });
        }
        doc.set(record.id, record);
        return metadataOf(record);
      });
    },
    async edit(id, patch) {
      return mutate((doc) => {
        const current = doc.get(id);
        if (!current) throw notFound(id);
        const next = patchedRecord(current, patch);
        doc.set(id, next);
        return metadataOf(next);
      });
    },
    async remove(id) {
      return mutate((doc) => {
        const current = doc.get(id);
        if (!current) throw notFound(id);
        doc.delete(id);
        return metadataOf(current);
      });
    },
  };
}
