import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { open, seal } from './crypto.js';

const key = randomBytes(32);
const plaintext = Buffer.from('{"secrets":{"a":"planted-value"}}');

function envelope(text: string): Record<string, unknown> {
  return JSON.parse(text) as Record<string, unknown>;
}

describe('seal/open', () => {
  it('round-trips and never stores the plaintext', () => {
    const sealed = seal(plaintext, key);
    expect(open(sealed, key).equals(plaintext)).toBe(true);
    expect(sealed).not.toContain('planted-value');
    expect(Object.keys(envelope(sealed)).sort()).toEqual(['ciphertext', 'nonce', 'version']);
    expect(Buffer.from(envelope(sealed).nonce as string, 'base64')).toHaveLength(12);
  });

  it('uses a fresh nonce on every write', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => envelope(seal(plaintext, key)).nonce));
    expect(nonces.size).toBe(50);
  });

  const locked = { code: 'VAULT_LOCKED' };
  const sealed = seal(plaintext, key);
  const mutate = (change: (e: Record<string, unknown>) => void) => {
    const e = envelope(sealed);
    change(e);
    return JSON.stringify(e);
  };

  it.each([
    ['a wrong key', () => open(sealed, randomBytes(32))],
    [
      'a flipped ciphertext byte',
      () => {
        const body = Buffer.from(envelope(sealed).ciphertext as string, 'base64');
        body[0] = (body[0] as number) ^ 1;
        return open(
          mutate((e) => {
            e.ciphertext = body.toString('base64');
          }),
          key,
        );
      },
    ],
    [
      'a flipped tag byte',
      () => {
        const body = Buffer.from(envelope(sealed).ciphertext as string, 'base64');
        body[body.length - 1] = (body[body.length - 1] as number) ^ 0x80;
        return open(
          mutate((e) => {
            e.ciphertext = body.toString('base64');
          }),
          key,
        );
      },
    ],
    [
      'another version (bound as AAD)',
      () =>
        open(
          mutate((e) => {
            e.version = 2;
          }),
          key,
        ),
    ],
    [
      'a version as text',
      () =>
        open(
          mutate((e) => {
            e.version = '1';
          }),
          key,
        ),
    ],
    [
      'a short nonce',
      () =>
        open(
          mutate((e) => {
            e.nonce = randomBytes(8).toString('base64');
          }),
          key,
        ),
    ],
    [
      'a nonce that is not base64',
      () =>
        open(
          mutate((e) => {
            e.nonce = '!!!!';
          }),
          key,
        ),
    ],
    [
      'a ciphertext shorter than the tag',
      () =>
        open(
          mutate((e) => {
            e.ciphertext = randomBytes(4).toString('base64');
          }),
          key,
        ),
    ],
    [
      'an extra field',
      () =>
        open(
          mutate((e) => {
            e.extra = true;
          }),
          key,
        ),
    ],
    ['a truncated file', () => open(sealed.slice(0, sealed.length / 2), key)],
    ['an empty file', () => open('', key)],
    ['a JSON array', () => open('[]', key)],
  ])('refuses %s with VAULT_LOCKED', (_name, attempt) => {
    expect(attempt).toThrow(expect.objectContaining(locked));
  });
});
