/**
 * Where the vault's 256-bit key comes from: `AH_VAULT_MASTER_KEY` (captured once at start-up and
 * removed from the environment so no child process inherits it), else the OS credential store via
 * @napi-rs/keyring. The keyring module is imported only when a vault operation needs it, so
 * commands that never touch secrets never load the native addon.
 */
import { randomBytes } from 'node:crypto';
import { AhError } from '../errors.js';
import { importModule } from '../platform/import-module.js';

export const MASTER_KEY_ENV = 'AH_VAULT_MASTER_KEY';
export const KEYRING_SERVICE = 'aihelper';
export const KEYRING_ACCOUNT = 'vault-v1';

export interface KeySource {
  /** Where the key comes from (for messages; never the key itself). */
  readonly origin: 'env' | 'keyring';
  /** The 32-byte key. `create` lets a keyring source generate and store a missing key. */
  load(options?: { create?: boolean }): Promise<Buffer>;
}

const HINT =
  `Set ${MASTER_KEY_ENV} to exactly 64 hex characters (for example from \`openssl rand -hex 32\`) and keep it: ` +
  'the vault cannot be opened without it, and every ah process that uses the vault needs the same value ' +
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
export function keyringKeySource(options: { service?: string; account?: string } = {}): KeySource {
  const service = options.service ?? KEYRING_SERVICE;
  const account = options.account ?? KEYRING_ACCOUNT;
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
        entry = new AsyncEntry(service, account);
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
        return Buffer.from(fresh);
      }
      const key = parseHexKey(stored);
      if (!key) throw unavailable(`the OS credential store entry ${service}/${account} does not hold a valid key`);
      cached = key;
      return Buffer.from(key);
    },
  };
}

/**
 * Reads AH_VAULT_MASTER_KEY once and deletes it from `env` (pass process.env at start-up, before
 * anything can spawn a child). Without it the keyring is the source.
 */
export function captureMasterKey(env: NodeJS.ProcessEnv): KeySource {
  const raw = env[MASTER_KEY_ENV];
  delete env[MASTER_KEY_ENV];
  // An empty assignment (`AH_VAULT_MASTER_KEY= ah …`) reads as "unset", the usual shell idiom.
  if (raw === undefined || raw === '') return keyringKeySource();
  return keySourceFromHex(raw);
}
