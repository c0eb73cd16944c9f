/**
 * Reading and matching files for search text, synchronously: the search engine (engine.ts) runs
 * these on worker threads and, from the CLI, on the main thread.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { decodeUtf8 } from '../../platform/text.js';
import { FIRST_READ_BYTES } from '../../platform/sniffed-read.js';
import { literalHitsInBytes } from './byte-hits.js';
import type { ContextLine, Hit } from './hit.js';
import type { Prefilter } from './prefilter.js';

export type { ContextLine, Hit } from './hit.js';

/** What to look for; plain data so it can be posted to a worker. */
export interface ScanSpec {
  /** Exact literal (case-sensitive, not a regex): files are rejected by a byte search first. */
  literal: string | null;
  /** Regex source and flags (always `g` and `m`), used when `literal` is null. */
  source: string;
  flags: string;
  /**
   * With a regex: literals one of which every match contains (case-sensitive); files holding none
   * of their UTF-8 bytes are never decoded or matched (matcher.ts requiredLiterals).
   */
  required?: string[] | null;
  maxBytes: number;
  /** Lines of context before and after each hit (0 = none). */
  context: number;
  /** Stop after this many hits in one file. */
  maxHits: number;
}

/** Per file: 'n' text without hits, 'l' too large, 'b' binary or not UTF-8, 'g' unreadable, or the hits. */
export type FileResult = 'n' | 'l' | 'b' | 'g' | Hit[];

/** Scratch state reused across files (one read buffer per thread). */
export interface ScanState {
  buffer: Buffer | null;
}

/**
 * The size the read buffer grows to at once when a file does not fit the first read (or the file
 * itself, when max_bytes allows it larger). Growing to each larger file's exact size made a fresh
 * buffer per new record, and every one was touched from scratch; an allocation this large is
 * mapped untouched, so only the pages the largest file fills ever cost anything.
 */
const GROWN_BUFFER = 8 * 1024 * 1024 + 1;

/**
 * Reads a whole text file into the reusable buffer: 'g' when unreadable, 'l' when over maxBytes,
 * 'b' when the sniff finds binary or non-UTF-8 bytes. Three system calls for most files: open, one
 * read and close. A read that returns less than it asked for has reached the end of a regular
 * file, so only a file that fills the first read costs an fstat (for its size, which decides 'l'
 * before the sniff does) and the reads up to its end; a binary one is left after its first read,
 * as ripgrep leaves it (in node_modules about a tenth of the bytes are in binary files, half of
 * them past the first read).
 */
function readText(path: string, maxBytes: number, state: ScanState): Buffer | 'l' | 'g' | 'b' {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return 'g';
  }
  try {
    let buffer = state.buffer;
    if (buffer === null || buffer.length < FIRST_READ_BYTES) {
      buffer = Buffer.allocUnsafe(FIRST_READ_BYTES);
      state.buffer = buffer;
    }
    // One byte more than maxBytes, so a read that gets it proves the file too large.
    const first = Math.min(FIRST_READ_BYTES, maxBytes + 1);
    let n = readSync(fd, buffer, 0, first, null);
    if (n < first) return sniffText(buffer.subarray(0, n)) ? buffer.subarray(0, n) : 'b';
    if (n > maxBytes) return 'l';
    const size = fstatSync(fd).size;
    if (size > maxBytes) return 'l';
    // The first read holds more than the sniff's window, so the sniff of it is the whole file's.
    if (!sniffText(buffer.subarray(0, n))) return 'b';
    // Room for one byte more than the size, so a read that fills it proves the file grew.
    const want = Math.min(size + 1, maxBytes + 1);
    if (buffer.length < want) {
      const grown = Buffer.allocUnsafe(Math.max(want, Math.min(GROWN_BUFFER, maxBytes + 1)));
      buffer.copy(grown, 0, 0, n);
      buffer = grown;
      state.buffer = grown;
    }
    for (;;) {
      if (n === buffer.length) {
        if (n > maxBytes) return 'l';
        const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(grown, 0, 0, n);
        buffer = grown;
        state.buffer = grown;
      }
      const read = readSync(fd, buffer, n, buffer.length - n, null);
      if (read === 0) break;
      n += read;
    }
    if (n > maxBytes) return 'l';
    return buffer.subarray(0, n);
  } catch {
    return 'g';
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Nothing to do: the descriptor is gone either way.
    }
  }
}

/**
 * The text sniff on the first 8192 bytes, validated by the native `isUtf8`: no NUL byte and valid
 * UTF-8, where a multi-byte character cut off by the window's edge still counts as text (but not
 * one cut off by the end of the file).
 */
function sniffText(bytes: Uint8Array): boolean {
  const window = 8192;
  const end = Math.min(bytes.length, window);
  const head = bytes.subarray(0, end);
  if (head.indexOf(0) !== -1) return false;
  if (isAscii(head) || isUtf8(head)) return true;
  if (bytes.length <= window) return false;
  // Drop an incomplete but well-formed sequence at the window's edge, then validate the rest.
  let lead = end - 1;
  while (lead >= 0 && end - lead <= 3 && ((head[lead] as number) & 0xc0) === 0x80) lead -= 1;
  if (lead < 0 || end - lead > 4) return false;
  const b = head[lead] as number;
  const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : 0;
  if (need === 0 || end - lead - 1 >= need) return false;
  return isUtf8(head.subarray(0, lead));
}

/** Number of characters (code points) in text[from, to). */
function codePointsBetween(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i += 1) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
  }
  return count;
}

/** One hit per line, in order, at most `max`; context lines attached when asked for. */
export function findHits(text: string, literal: string | null, re: RegExp | null, max: number, context: number): Hit[] {
  const hits: Hit[] = [];
  let line = 1;
  let counted = 0;
  let from = 0;
  while (from <= text.length && hits.length < max) {
    let index: number;
    if (re === null) {
      index = text.indexOf(literal as string, from);
      if (index === -1) break;
    } else {
      re.lastIndex = from;
      const m = re.exec(text);
      if (m === null) break;
      index = m.index;
    }
    // Count newlines between the last counted position and the hit.
    for (let i = text.indexOf('\n', counted); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
    const lineStart = text.lastIndexOf('\n', index - 1) + 1;
    let lineEnd = text.indexOf('\n', index);
    if (lineEnd === -1) lineEnd = text.length;
    const raw = text.slice(lineStart, lineEnd);
    hits.push({
      line,
      column: codePointsBetween(text, lineStart, index) + 1,
      text: raw.endsWith('\r') ? raw.slice(0, -1) : raw,
      before: [],
      after: [],
    });
    counted = lineEnd;
    if (lineEnd >= text.length) break;
    line += 1;
    counted = lineEnd + 1;
    from = lineEnd + 1;
  }
  if (context > 0 && hits.length > 0) {
    const lines = text.split('\n');
    const around = (first: number, last: number): ContextLine[] => {
      const out: ContextLine[] = [];
      for (let n = Math.max(1, first); n <= Math.min(lines.length, last); n += 1) {
        const l = lines[n - 1] as string;
        out.push({ line: n, text: l.endsWith('\r') ? l.slice(0, -1) : l });
      }
      return out;
    };
    for (const hit of hits) {
      hit.before = around(hit.line - context, hit.line - 1);
      hit.after = around(hit.line + 1, hit.line + context);
    }
  }
  return hits;
}

/**
 * Reads, sniffs and searches one file. `needle`: the literal's bytes when it is matched on the
 * bytes (a literal search without context lines, byte-hits.ts), made once per search.
 */
export function scanFile(
  spec: ScanSpec,
  path: string,
  state: ScanState,
  holdsLiteral: Prefilter | null,
  re: RegExp | null,
  needle: Buffer | null,
): FileResult {
  const bytes = readText(path, spec.maxBytes, state);
  if (typeof bytes === 'string') return bytes;
  // Files that cannot contain the literal are never decoded.
  if (holdsLiteral !== null && !holdsLiteral(bytes)) {
    // A regex's required literal: still classify as decodeUtf8 would ('b' when not UTF-8).
    if (re !== null && !isAscii(bytes) && !isUtf8(bytes)) return 'b';
    return 'n';
  }
  if (needle !== null) {
    const hits = literalHitsInBytes(bytes, needle, spec.maxHits);
    return hits === 'b' ? 'b' : hits.length === 0 ? 'n' : hits;
  }
  const text = decodeUtf8(bytes);
  if (text === null) return 'b';
  const hits = findHits(text, spec.literal, re, spec.maxHits, spec.context);
  return hits.length === 0 ? 'n' : hits;
}
