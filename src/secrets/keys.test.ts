import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { captureMasterKey, keySourceFromHex, MASTER_KEY_ENV } from './keys.js';

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
