import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeAll } from './render.js';

describe('writeAll', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ah-render-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** What writeAll puts in a file, against the whole text's own UTF-8. */
  const written = (text: string): Buffer => {
    const file = join(dir, 'out');
    const fd = openSync(file, 'w');
    try {
      expect(writeAll(fd, text)).toBe(true);
    } finally {
      closeSync(fd);
    }
    return readFileSync(file);
  };

  it('writes a short text as its UTF-8 bytes', () => {
    expect(written('héllo ✓\n').equals(Buffer.from('héllo ✓\n', 'utf8'))).toBe(true);
  });

  it('writes a text longer than one chunk byte for byte, a surrogate pair across the chunk edge kept whole', () => {
    const chunk = 1 << 16;
    for (const at of [chunk - 2, chunk - 1, chunk, 2 * chunk - 1]) {
      // The pair's high half lands on each side of the edge in turn.
      const text = `${'a'.repeat(at)}😀${'b'.repeat(chunk)}é\n`;
      const bytes = written(text);
      expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
      expect(bytes.toString('utf8')).toBe(text);
    }
  });

  it('encodes a lone surrogate as the whole text would (U+FFFD), at a chunk edge too', () => {
    const chunk = 1 << 16;
    const text = `${'a'.repeat(chunk - 1)}\ud83d${'c'.repeat(10)}\udc00\n`;
    expect(written(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('writes several megabytes of multi-byte text intact', () => {
    const text = 'ж€😀x\n'.repeat(400_000);
    expect(written(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });
});
