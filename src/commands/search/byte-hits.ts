/**
 * A literal search (no context lines) straight on a file's bytes. Decoding a whole file to a
 * string only to look for a few hits costs a copy of it in the heap: a 6 MB file with one hit
 * paid ~1,500 freshly touched pages (about 17 ms on a machine where a page fault costs ~11 µs)
 * for a string that was thrown away at once. UTF-8 never puts a character's first byte inside
 * another character, so in valid UTF-8 the literal's bytes occur exactly where its characters do,
 * and `\n` is always one byte: lines, hits and columns come out the same as from the decoded text.
 * Only the lines that hold a hit are decoded.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { utf8BomLength } from '../../platform/text.js';
import type { Hit } from './hit.js';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * The UTF-8 bytes of a literal, or null when they would not stand for it: a lone surrogate is
 * encoded as U+FFFD, which the decoded text's search never matches for it.
 */
export function literalBytes(literal: string): Buffer | null {
  const bytes = Buffer.from(literal, 'utf8');
  return bytes.length > 0 && bytes.toString('utf8') === literal ? bytes : null;
}

/** Characters (code points) in bytes[from, to) of valid UTF-8: the bytes that start one. */
function codePointsIn(bytes: Buffer, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i += 1) if (((bytes[i] as number) & 0xc0) !== 0x80) count += 1;
  return count;
}

/**
 * One hit per line, in order, at most `max`, as the decoded text's search finds them (a UTF-8 BOM
 * is not part of the text); 'b' when the bytes are not UTF-8.
 */
export function literalHitsInBytes(bytes: Buffer, needle: Buffer, max: number): Hit[] | 'b' {
  const ascii = isAscii(bytes);
  if (!ascii && !isUtf8(bytes)) return 'b';
  const start = ascii ? 0 : utf8BomLength(bytes);
  const end = bytes.length;
  const encoding = ascii ? 'latin1' : 'utf8';
  const hits: Hit[] = [];
  let line = 1;
  let counted = start;
  let from = start;
  while (from <= end && hits.length < max) {
    const index = bytes.indexOf(needle, from);
    if (index === -1) break;
    for (let i = counted; i < index; i += 1) if (bytes[i] === NEWLINE) line += 1;
    // The text's lastIndexOf('\n', index - 1) looks at index 0 itself when the hit starts there.
    const before = bytes.lastIndexOf(NEWLINE, Math.max(start, index - 1));
    const lineStart = before < start ? start : before + 1;
    let lineEnd = bytes.indexOf(NEWLINE, index);
    if (lineEnd === -1) lineEnd = end;
    const textEnd = lineEnd > lineStart && bytes[lineEnd - 1] === CARRIAGE_RETURN ? lineEnd - 1 : lineEnd;
    hits.push({
      line,
      column: (ascii ? Math.max(0, index - lineStart) : codePointsIn(bytes, lineStart, index)) + 1,
      text: textEnd > lineStart ? bytes.toString(encoding, lineStart, textEnd) : '',
      before: [],
      after: [],
    });
    if (lineEnd >= end) break;
    line += 1;
    counted = lineEnd + 1;
    from = lineEnd + 1;
  }
  return hits;
}
