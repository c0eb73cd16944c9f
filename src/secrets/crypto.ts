/**
 * The on-disk envelope of the vault: the whole plaintext document sealed with AES-256-GCM. The
 * format version is authenticated as additional data, so a file relabelled with another version
 * fails to open instead of being read under the wrong rules. Every failure to open is one error
 * (VAULT_LOCKED): callers never see a partially decoded document.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AhError } from '../errors.js';

const VAULT_FORMAT_VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

const AAD = Buffer.from([VAULT_FORMAT_VERSION]);

/** The one error for every unreadable vault; the cause says which check failed, never any content. */
export function lockedError(cause: string): AhError {
  return new AhError({
    code: 'VAULT_LOCKED',
    message: 'the secrets vault cannot be opened',
    cause,
    hint: 'The vault file is damaged, from another format version, or was written with a different key (AH_VAULT_MASTER_KEY or the OS keyring entry aihelper/vault-v1).',
    operation: 'secrets.vault',
  });
}

/** Strict base64: Buffer.from() silently skips junk, so the text must round-trip exactly. */
function decodeBase64(text: unknown, field: string): Buffer {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw lockedError(`${field} is not base64`);
  const bytes = Buffer.from(text, 'base64');
  if (bytes.toString('base64') !== text) throw lockedError(`${field} is not canonical base64`);
  return bytes;
}

function checkKey(key: Buffer): void {
  // A wrong-sized key is a programming error in the key source, not a damaged file.
  if (key.length !== KEY_BYTES) throw new Error(`vault key must be ${KEY_BYTES} bytes`);
}

/** Encrypts the plaintext under a fresh random nonce and returns the envelope file text. */
export function seal(plaintext: Buffer, key: Buffer): string {
  checkKey(key);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(AAD);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return `${JSON.stringify({ version: VAULT_FORMAT_VERSION, nonce: nonce.toString('base64'), ciphertext: body.toString('base64') })}\n`;
}

/** Verifies and decrypts an envelope; any parse, version, nonce or authentication problem → VAULT_LOCKED. */
export function open(fileText: string, key: Buffer): Buffer {
  checkKey(key);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fileText);
  } catch {
    throw lockedError('the vault file is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw lockedError('the vault file is not an envelope object');
  const envelope = parsed as Record<string, unknown>;
  const keys = Object.keys(envelope).sort().join(',');
  if (keys !== 'ciphertext,nonce,version') throw lockedError('the envelope has unexpected or missing fields');
  if (envelope.version !== VAULT_FORMAT_VERSION) throw lockedError('unsupported vault format version');
  const nonce = decodeBase64(envelope.nonce, 'nonce');
  if (nonce.length !== NONCE_BYTES) throw lockedError('the nonce has the wrong length');
  const body = decodeBase64(envelope.ciphertext, 'ciphertext');
  if (body.length < TAG_BYTES) throw lockedError('the ciphertext is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(AAD);
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw lockedError('authentication failed (wrong key or modified file)');
  }
}
