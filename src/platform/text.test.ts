import { describe, expect, it } from 'vitest';
import { alignColumns, decodeUtf8, lineCount, SNIFF_BYTES } from './text.js';

function padded(tail: Buffer, total = SNIFF_BYTES + 16): Buffer {
  const head = Buffer.alloc(total - tail.length, 0x61);
  return Buffer.concat([head.subarray(0, SNIFF_BYTES - 1), tail, head.subarray(SNIFF_BYTES - 1 + tail.length)]).subarray(0, total);
}

// The file commands sniff SNIFF_BYTES for a NUL and then decode the whole file strictly; a character
// split by the sniff window must not make a text file binary.
describe('decodeUtf8', () => {
  it.each([
    ['2-byte é', 'é'],
    ['3-byte €', '€'],
    ['4-byte 😀', '😀'],
  ])('accepts a %s split by the 8192-byte window', (_name, char) => {
    const bytes = padded(Buffer.from(char));
    expect(bytes.length).toBeGreaterThan(SNIFF_BYTES);
    expect(bytes.subarray(0, SNIFF_BYTES).includes(0)).toBe(false);
    expect(decodeUtf8(bytes)).toBe(bytes.toString('utf8'));
  });

  it('decodes as a strict TextDecoder does: ASCII, UTF-8, a leading BOM dropped, any view of the bytes', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    const samples = ['plain ascii\n', 'é 漢字 😀', '\ufeffwith a BOM', '\ufeff', 'a\ufeffb', ''].map((t) => Buffer.from(t));
    for (const bytes of samples) expect(decodeUtf8(bytes)).toBe(strict.decode(bytes));
    const backing = Buffer.from('xx€yy');
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 2, 3);
    expect(decodeUtf8(view)).toBe('€');
  });

  it('rejects malformed sequences and a sequence cut by the end of the file', () => {
    expect(decodeUtf8(Buffer.from([0xc3, 0x28]))).toBeNull();
    expect(decodeUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBeNull();
    expect(decodeUtf8(Buffer.from([0xc0, 0xaf]))).toBeNull();
    expect(decodeUtf8(Buffer.from([0x61, 0xe2, 0x82]))).toBeNull();
  });
});

describe('lineCount', () => {
  it('counts lines the way splitting at newlines without a final empty line does', () => {
    expect(['', 'a', 'a\n', 'a\nb', 'a\n\n', '\n'].map(lineCount)).toEqual([0, 1, 1, 2, 2, 1]);
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
