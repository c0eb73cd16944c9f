import { describe, expect, it } from 'vitest';
import { alignColumns, decodeUtf8, looksLikeText, SNIFF_BYTES } from './text.js';

function padded(tail: Buffer, total = SNIFF_BYTES + 16): Buffer {
  const head = Buffer.alloc(total - tail.length, 0x61);
  return Buffer.concat([head.subarray(0, SNIFF_BYTES - 1), tail, head.subarray(SNIFF_BYTES - 1 + tail.length)]).subarray(0, total);
}

describe('looksLikeText', () => {
  it.each([
    ['2-byte é', 'é'],
    ['3-byte €', '€'],
    ['4-byte 😀', '😀'],
  ])('accepts a %s split by the 8192-byte window', (_name, char) => {
    const bytes = padded(Buffer.from(char));
    expect(bytes.length).toBeGreaterThan(SNIFF_BYTES);
    expect(looksLikeText(bytes.subarray(0, SNIFF_BYTES), false)).toBe(true);
    expect(decodeUtf8(bytes)).not.toBeNull();
  });

  it('rejects NUL and malformed sequences', () => {
    expect(looksLikeText(Buffer.from([0x61, 0x00]), true)).toBe(false);
    expect(looksLikeText(Buffer.from([0xc3, 0x28]), true)).toBe(false);
    expect(looksLikeText(Buffer.from([0xed, 0xa0, 0x80]), true)).toBe(false);
    expect(looksLikeText(Buffer.from([0xc0, 0xaf]), true)).toBe(false);
  });

  it('rejects a sequence cut by the end of a complete file', () => {
    expect(looksLikeText(Buffer.from([0x61, 0xe2, 0x82]), true)).toBe(false);
    expect(looksLikeText(Buffer.from([0x61, 0xe2, 0x82]), false)).toBe(true);
  });
});

describe('alignColumns', () => {
  it('pads every column but the last to its widest cell, two spaces apart', () => {
    expect(
      alignColumns([
        ['ID', 'KIND', 'NOTE'],
        ['a-long-id', 'x', 'free text'],
        ['b', 'postgres', ''],
      ]),
    ).toEqual(['ID         KIND      NOTE', 'a-long-id  x         free text', 'b          postgres  ']);
  });
});
