/**
 * Where the vault's 256-bit key comes from: `AH_VAULT_MASTER_KEY_FILE` (a file only its owner can
 * read, holding the key as hex), else `AH_VAULT_MASTER_KEY` (captured once at start-up and removed
 * from the environment so no child process inherits it), else the OS credential store via
 * @napi-rs/keyring. The keyring module is imported only when a vault operation needs it, so
 * commands that never touch secrets never load the native addon.
 *
 * Why the file: deleting a variable from process.env does not erase it from the process's initial
 * environment block, which /proc/<pid>/environ shows to every process of the same user for the
 * whole life of the server (a run.check child read it through /proc/$PPID/environ). Only a key
 * that never was in the environment stays out of it; the file variable carries just a path.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { AhError } from '../errors.js';
import { importModule } from '../platform/import-module.js';

export const MASTER_KEY_ENV = 'AH_VAULT_MASTER_KEY';
export const MASTER_KEY_FILE_ENV = 'AH_VAULT_MASTER_KEY_FILE';
const KEYRING_SERVICE = 'aihelper';
const KEYRING_ACCOUNT = 'vault-v1';

export interface KeySource {
  /** Where the key comes from (for messages; never the key itself). */
  readonly origin: 'env' | 'file' | 'keyring';
  /** The 32-byte key. `create` lets a keyring source generate and store a missing key. */
  load(options?: { create?: boolean }): Promise<Buffer>;
}

const HINT =
  `Point ${MASTER_KEY_FILE_ENV} at a file only you can read (mode 0600) holding 64 hex characters (for example from \`openssl rand -hex 32\`), ` +
  `or set ${MASTER_KEY_ENV} to that value, and keep it: the vault cannot be opened without it, and every ah process that uses the vault needs the same key ` +
  '(the HTTP server `ah mcp serve --transport http` and the managed service included). ' +
  `Or make the OS credential store available (Secret Service, macOS Keychain or Windows Credential Manager; entry ${KEYRING_SERVICE}/${KEYRING_ACCOUNT}). ` +
  'Then run `ah secrets init`.';

function unavailable(message: string, cause?: string): AhError {
  return new AhError({ code: 'VAULT_KEY_UNAVAILABLE', message, cause, hint: HINT, operation: 'secrets.key' });
}

/** Exactly 64 hex digits; Number/parseInt-style leniency (signs, spaces, 0x) is refused. */
function parseHexKey(text: string): Buffer | undefined {
  return /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : undefined;
}

/** A fixed key given as hex (the environment variable, and tests). Malformed input fails on use, not here. */
export function keySourceFromHex(hex: string): KeySource {
  const key = parseHexKey(hex);
  return {
    origin: 'env',
    load: async () => {
      if (!key) throw unavailable(`${MASTER_KEY_ENV} is malformed`, 'expected exactly 64 hexadecimal characters');
      return Buffer.from(key);
    },
  };
}

type Keyring = typeof import('@napi-rs/keyring');

/** The OS credential store entry aihelper/vault-v1, holding the key as hex text. */
function keyringKeySource(): KeySource {
  let cached: Buffer | undefined;
  const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
  return {
    origin: 'keyring',
    async load(opts = {}) {
      if (cached) return Buffer.from(cached);
      let entry: InstanceType<Keyring['AsyncEntry']>;
      let stored: string | null;
      try {
        const { AsyncEntry } = (await importModule('@napi-rs/keyring')) as Keyring;
        entry = new AsyncEntry(KEYRING_SERVICE, KEYRING_ACCOUNT);
        stored = await entry.getPassword();
      } catch (error) {
        throw unavailable('no vault key: AH_VAULT_MASTER_KEY is not set and the OS credential store cannot be used', describe(error));
      }
      if (stored === null || stored === undefined) {
        if (!opts.create) throw unavailable('no vault key: AH_VAULT_MASTER_KEY is not set and the OS credential store has no key');
        const fresh = randomBytes(32);
        try {
          await entry.setPassword(fresh.toString('hex'));
        } catch (error) {
          throw unavailable('could not store a new vault key in the OS credential store', describe(error));
        }
        cached = fresh;
      } else {
        cached = parseHexKey(stored);
        if (!cached) throw unavailable(`the OS credential store entry ${KEYRING_SERVICE}/${KEYRING_ACCOUNT} does not hold a valid key`);
      }
      return Buffer.from(cached);
    },
  };
}

/** Longest key file we read: 64 hex digits and a line ending, with room for stray whitespace. */
const KEY_FILE_MAX_BYTES = 1024;

/**
 * The key from a file: a regular file owned by us that neither group nor others can read (POSIX),
 * holding 64 hex digits (surrounding whitespace allowed). Opened without blocking, so a FIFO in its
 * place cannot hang the call. Read on each use: a rotated file takes effect at once.
 */
export function keySourceFromFile(path: string): KeySource {
  const refuse = (message: string, cause?: string) => unavailable(`${MASTER_KEY_FILE_ENV}: ${message}`, cause);
  return {
    origin: 'file',
    async load() {
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
      } catch (error) {
        throw refuse(`cannot open ${path}`, (error as NodeJS.ErrnoException).code ?? String(error));
      }
      try {
        const info = await handle.stat();
        if (!info.isFile()) throw refuse(`${path} is not a regular file`);
        if (process.platform !== 'win32') {
          if ((info.mode & 0o077) !== 0)
            throw refuse(`${path} can be read by other users`, `mode ${(info.mode & 0o777).toString(8)}; run chmod 600 on it`);
          if (typeof process.getuid === 'function' && info.uid !== process.getuid()) throw refuse(`${path} belongs to another user`);
        }
        if (info.size > KEY_FILE_MAX_BYTES) throw refuse(`${path} is too large to hold a key`);
        const buffer = Buffer.alloc(KEY_FILE_MAX_BYTES + 1);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        const key = parseHexKey(buffer.subarray(0, bytesRead).toString('utf8').trim());
        buffer.fill(0);
        if (!key) throw refuse(`${path} does not hold a key`, 'expected exactly 64 hexadecimal characters');
        return key;
      } finally {
        await handle.close();
      }
    },
  };
}

/**
 * Reads the key settings once and deletes them from `env` (pass process.env at start-up, before
 * anything can spawn a child): AH_VAULT_MASTER_KEY_FILE first, then AH_VAULT_MASTER_KEY, else the
 * keyring. Both set is refused on use rather than guessing which one was meant.
 */
export function captureMasterKey(env: NodeJS.ProcessEnv): KeySource {
  const raw = env[MASTER_KEY_ENV];
  const file = env[MASTER_KEY_FILE_ENV];
  delete env[MASTER_KEY_ENV];
  delete env[MASTER_KEY_FILE_ENV];
  // An empty assignment (`AH_VAULT_MASTER_KEY= ah …`) reads as "unset", the usual shell idiom.
  const hasRaw = raw !== undefined && raw !== '';
  const hasFile = file !== undefined && file !== '';
  if (hasFile && hasRaw) {
    return {
      origin: 'file',
      load: () => Promise.reject(unavailable(`both ${MASTER_KEY_FILE_ENV} and ${MASTER_KEY_ENV} are set`, 'set only one of them')),
    };
  }
  if (hasFile) return keySourceFromFile(file);
  return hasRaw ? keySourceFromHex(raw) : keyringKeySource();
}
