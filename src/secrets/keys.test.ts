import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/tmp.js';
import { captureMasterKey, keySourceFromFile, keySourceFromHex, MASTER_KEY_ENV, MASTER_KEY_FILE_ENV } from './keys.js';

describe('keySourceFromHex', () => {
  it('loads exactly 64 hex digits, either case', async () => {
    const hex = randomBytes(32).toString('hex');
    expect((await keySourceFromHex(hex).load()).toString('hex')).toBe(hex);
    expect((await keySourceFromHex(hex.toUpperCase()).load()).toString('hex')).toBe(hex);
  });

  it.each([
    ['63 digits', 'a'.repeat(63)],
    ['65 digits', 'a'.repeat(65)],
    ['signed pairs', `+f${'a'.repeat(62)}`],
    ['a 0x prefix', `0x${'a'.repeat(62)}`],
    ['spaces', ` ${'a'.repeat(62)} `],
    ['non-hex letters', 'g'.repeat(64)],
  ])('refuses %s with VAULT_KEY_UNAVAILABLE, on use, without echoing the key', async (_name, hex) => {
    const source = keySourceFromHex(hex);
    const error = (await source.load().then(
      () => undefined,
      (e: unknown) => e,
    )) as Error & { hint?: string; detail?: string };
    expect(error).toMatchObject({ code: 'VAULT_KEY_UNAVAILABLE' });
    expect(error.hint).toContain(MASTER_KEY_ENV);
    expect(error.hint).toContain('credential store');
    expect(`${error.message} ${error.detail}`).not.toContain(hex.trim());
  });
});

describe('captureMasterKey', () => {
  it('takes the key out of the environment it was given', async () => {
    const hex = randomBytes(32).toString('hex');
    const env: NodeJS.ProcessEnv = { [MASTER_KEY_ENV]: hex, OTHER: 'x' };
    const source = captureMasterKey(env);
    expect(env).toEqual({ OTHER: 'x' });
    expect(source.origin).toBe('env');
    expect((await source.load()).toString('hex')).toBe(hex);
  });

  it('removes even a malformed key, which then fails on use', async () => {
    const env: NodeJS.ProcessEnv = { [MASTER_KEY_ENV]: 'short' };
    const source = captureMasterKey(env);
    expect(env).toEqual({});
    await expect(source.load()).rejects.toMatchObject({ code: 'VAULT_KEY_UNAVAILABLE' });
  });

  it('falls back to the OS keyring when the variable is unset or empty (without touching it yet)', () => {
    expect(captureMasterKey({}).origin).toBe('keyring');
    const env: NodeJS.ProcessEnv = { [MASTER_KEY_ENV]: '' };
    expect(captureMasterKey(env).origin).toBe('keyring');
    expect(env).toEqual({});
  });
});

describe('keySourceFromFile (AH_VAULT_MASTER_KEY_FILE)', () => {
  const write = (content: string, mode = 0o600) => {
    const path = join(tempDir(), 'vault.key');
    writeFileSync(path, content, { mode });
    chmodSync(path, mode);
    return path;
  };

  it('loads a 0600 file holding the key (a trailing newline is fine)', async () => {
    const hex = randomBytes(32).toString('hex');
    const source = keySourceFromFile(write(`${hex}\n`));
    expect(source.origin).toBe('file');
    expect((await source.load()).toString('hex')).toBe(hex);
  });

  it.skipIf(process.platform === 'win32')('refuses a file other users can read, without echoing the key', async () => {
    const hex = randomBytes(32).toString('hex');
    const error = (await keySourceFromFile(write(hex, 0o644))
      .load()
      .catch((e: unknown) => e)) as Error & { cause?: string };
    expect(error).toMatchObject({ code: 'VAULT_KEY_UNAVAILABLE' });
    expect(error.message).toContain('other users');
    expect(`${error.message} ${error.cause}`).not.toContain(hex);
  });

  it('refuses malformed content, a directory and a missing file', async () => {
    await expect(keySourceFromFile(write('not a key')).load()).rejects.toMatchObject({ code: 'VAULT_KEY_UNAVAILABLE' });
    await expect(keySourceFromFile(tempDir()).load()).rejects.toMatchObject({ code: 'VAULT_KEY_UNAVAILABLE' });
    await expect(keySourceFromFile(join(tempDir(), 'missing')).load()).rejects.toMatchObject({ code: 'VAULT_KEY_UNAVAILABLE' });
  });

  it.skipIf(process.platform === 'win32')('a FIFO in place of the file is refused at once, not waited on', async () => {
    const path = join(tempDir(), 'fifo');
    execFileSync('mkfifo', ['-m', '600', path]);
    await expect(keySourceFromFile(path).load()).rejects.toMatchObject({ code: 'VAULT_KEY_UNAVAILABLE' });
  });

  it('captureMasterKey prefers the file, removes both variables, and refuses both at once', async () => {
    const hex = randomBytes(32).toString('hex');
    const path = write(hex);
    const env: NodeJS.ProcessEnv = { [MASTER_KEY_FILE_ENV]: path, OTHER: 'x' };
    const source = captureMasterKey(env);
    expect(env).toEqual({ OTHER: 'x' });
    expect((await source.load()).toString('hex')).toBe(hex);
    const both: NodeJS.ProcessEnv = { [MASTER_KEY_FILE_ENV]: path, [MASTER_KEY_ENV]: hex };
    const refused = captureMasterKey(both);
    expect(both).toEqual({});
    await expect(refused.load()).rejects.toMatchObject({ code: 'VAULT_KEY_UNAVAILABLE' });
  });
});
