/** A real encrypted vault for tests: fixed test key, in a given or fresh (not yet created) directory. */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keySourceFromHex } from '../../src/secrets/keys.js';
import type { VaultStore } from '../../src/secrets/types.js';
import { createVault } from '../../src/secrets/vault.js';

/** Never a real key: tests only. */
export const TEST_VAULT_KEY = 'a1'.repeat(32);

/**
 * Without a directory the vault points at an unused temp path; nothing is written there unless a
 * test calls init(), so hosts that never touch secrets leave no files behind.
 */
export function testVault(configDir?: string, key = TEST_VAULT_KEY): VaultStore {
  const dir = configDir ?? join(tmpdir(), `ah-test-vault-${process.pid}-${randomBytes(6).toString('hex')}`);
  return createVault({ configDir: dir, key: keySourceFromHex(key) });
}

/** Bundles the vault worker fixture into `dir` (node cannot run TypeScript directly) and returns its path. */
export async function buildVaultWorker(dir: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join(dir, 'vault-worker.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, '../fixtures/secrets/vault-worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['@napi-rs/keyring'],
    logLevel: 'error',
  });
  return outfile;
}
