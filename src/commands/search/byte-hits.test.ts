import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../platform/text.js';
import { literalBytes, literalHitsInBytes } from './byte-hits.js';
import { findHits } from './scan.js';

/** What the decoded text's search finds in the same bytes (the reference). */
function fromText(bytes: Buffer, literal: string, max: number) {
  const text = decodeUtf8(bytes);
  return text === null ? 'b' : findHits(text, literal, null, max, 0);
}

function fromBytes(bytes: Buffer, literal: string, max: number) {
  const needle = literalBytes(literal);
  if (needle === null) throw new Error(`no bytes for ${JSON.stringify(literal)}`);
  return literalHitsInBytes(bytes, needle, max);
}

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['a', 'b', 'ab', '\n', '\r\n', '\r', 'é', '€', '😀', ' ', 'aé', '\ufeff'];

describe('literalHitsInBytes', () => {
  it('finds what the decoded text search finds, in random text', () => {
    for (let seed = 1; seed <= 3000; seed += 1) {
      const next = random(seed);
      const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
      let text = next() < 0.2 ? '\ufeff' : '';
      const length = Math.floor(next() * 40);
      for (let i = 0; i < length; i += 1) text += pick(PIECES);
      // A literal taken from the text itself (often with a newline or a multi-byte character in
      // it), or a fixed one.
      let literal = pick(['a', 'ab', 'é', '😀', '\na', 'b\r', '€a', '\ufeffa']);
      if (next() < 0.6 && text.length > 0) {
        const from = Math.floor(next() * text.length);
        const cut = text.slice(from, from + 1 + Math.floor(next() * 4));
        if (literalBytes(cut) !== null) literal = cut;
      }
      const max = next() < 0.2 ? 1 : 100;
      const bytes = Buffer.from(text, 'utf8');
      expect({ seed, hits: fromBytes(bytes, literal, max) }).toEqual({ seed, hits: fromText(bytes, literal, max) });
    }
  });

  it('counts columns in characters, after a BOM, and drops the carriage return of a CRLF line', () => {
    const bytes = Buffer.from('\ufeffé😀 x\r\nline x\n', 'utf8');
    expect(fromBytes(bytes, 'x', 10)).toEqual([
      { line: 1, column: 4, text: 'é😀 x', before: [], after: [] },
      { line: 2, column: 6, text: 'line x', before: [], after: [] },
    ]);
    expect(fromBytes(bytes, 'x', 10)).toEqual(fromText(bytes, 'x', 10));
  });

  it('calls bytes that are not UTF-8 binary', () => {
    expect(fromBytes(Buffer.from('caf\xe9 x', 'latin1'), 'x', 10)).toBe('b');
  });

  it('has no bytes for a literal with a lone surrogate (the text search never matches one)', () => {
    expect(literalBytes('a\ud800')).toBeNull();
    expect(literalBytes('')).toBeNull();
    expect(literalBytes('é')).toEqual(Buffer.from('é'));
  });
});
