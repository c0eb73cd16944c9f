/** Text helpers shared by the commands: the binary sniff window, strict UTF-8, line counts, tables, quoting. */

import { isAscii, isUtf8 } from 'node:buffer';

/** A NUL byte in this many leading bytes marks a file as binary. */
export const SNIFF_BYTES = 8192;

/**
 * The largest max_bytes a command that reads whole text files accepts (file read, search text,
 * ctx): such a file is held in memory as bytes and as text, on every thread that reads one.
 */
export const MAX_TEXT_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Decodes the whole buffer as UTF-8 (a leading BOM dropped, as TextDecoder does), or returns null
 * when it is not valid UTF-8. The checks are Node's native ones (simdutf) and the decode is V8's:
 * a strict TextDecoder goes through ICU, ~0.7 ms per MiB of ASCII where this takes a fraction.
 */
export function decodeUtf8(bytes: Uint8Array): string | null {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isAscii(buffer)) return buffer.toString('latin1');
  if (!isUtf8(buffer)) return null;
  return buffer.toString('utf8', utf8BomLength(buffer));
}

/** Bytes of a leading UTF-8 byte order mark (3), or 0: the decoded text starts after it. */
export function utf8BomLength(bytes: Uint8Array): 0 | 3 {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/** Lines in a text: a trailing newline does not start another line; an empty text has none. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
  return text.endsWith('\n') ? count : count + 1;
}

/**
 * Lines of a plain-text table: every column but the last padded to its widest cell, columns two
 * spaces apart. The last column is left as is (it is free text such as a description).
 */
export function alignColumns(rows: readonly (readonly string[])[]): string[] {
  const padded = Math.max(0, ...rows.map((r) => r.length - 1));
  const widths = Array.from({ length: padded }, (_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (i < padded ? cell.padEnd(widths[i] as number) : cell)).join('  '));
}

/** An argv word as a POSIX shell would need it typed: bare when safe, else single-quoted. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

/** `text` as a regular expression that matches it literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
