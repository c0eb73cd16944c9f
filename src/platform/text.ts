/** Text sniffing shared by file and search commands. */

export const SNIFF_BYTES = 8192;

/**
 * True when the first SNIFF_BYTES bytes look like text: no NUL byte and valid UTF-8. A multi-byte
 * character cut off by the sniff boundary (or by the end of a partial read) still counts as text.
 */
export function looksLikeText(bytes: Uint8Array, complete: boolean): boolean {
  const n = Math.min(bytes.length, SNIFF_BYTES);
  let i = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (b === 0) return false;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return false;
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k += 1) {
      if (i + k >= n) {
        // Truncated sequence: fine only if the cut is the sniff window's edge, not the file's end.
        const cutByWindow = n < bytes.length || !complete;
        return cutByWindow;
      }
      const c = bytes[i + k] as number;
      if ((c & 0xc0) !== 0x80) return false;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += need + 1;
  }
  return true;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** Decodes the whole buffer as UTF-8, or returns null when it is not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return null;
  }
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
