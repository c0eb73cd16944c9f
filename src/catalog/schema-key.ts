/**
 * The identity of a schema document for ahead-of-time validators: its length and a 53-bit hash
 * (cyrb53) of its JSON text. Cheap enough for every first compile, and it needs no crypto module.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';

export interface Validator {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null | undefined;
}

export function schemaKey(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `${text.length}:${hash.toString(36)}`;
}
