import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesRead, threadIoCounted } from '../../../test/helpers/thread-io.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { loadCounted } from './shared.js';

function load(bytes: Buffer, maxBytes = 8 * 1024 * 1024) {
  const path = join(tempDir(), 'file');
  writeFileSync(path, bytes);
  const skips = { skipped_binary_files: 0, skipped_large_files: 0 };
  return { loaded: loadCounted(path, maxBytes, skips), skips };
}

describe('ctx file loading', () => {
  it('reads a text file longer than the first read whole', () => {
    const text = 'line of text\n'.repeat(20000);
    const { loaded, skips } = load(Buffer.from(text));
    expect(loaded).toMatchObject({ text, size: text.length });
    expect(skips).toEqual({ skipped_binary_files: 0, skipped_large_files: 0 });
  });

  it('counts invalid UTF-8 past the first read as binary, and a NUL past the sniff window as text', () => {
    const invalid = Buffer.concat([Buffer.alloc(100 * 1024, 'a'), Buffer.from([0xff])]);
    expect(load(invalid).skips.skipped_binary_files).toBe(1);
    const lateNul = Buffer.alloc(100 * 1024, 'a');
    lateNul[9000] = 0;
    expect(load(lateNul).loaded?.size).toBe(lateNul.length);
  });

  it('counts a file over max_bytes as large, whatever its bytes', () => {
    const bytes = Buffer.alloc(1000);
    expect(load(bytes, 999)).toEqual({ loaded: null, skips: { skipped_binary_files: 0, skipped_large_files: 1 } });
  });

  it.skipIf(!threadIoCounted)('leaves a binary file after its first read', () => {
    const bytes = Buffer.alloc(4 * 1024 * 1024, 'a');
    bytes[1] = 0;
    const path = join(tempDir(), 'big.bin');
    writeFileSync(path, bytes);
    const skips = { skipped_binary_files: 0, skipped_large_files: 0 };
    const before = bytesRead();
    expect(loadCounted(path, 8 * 1024 * 1024, skips)).toBeNull();
    // The first read (64 KiB) and this thread's read of its own counters, not the 4 MiB.
    expect(bytesRead() - before).toBeLessThan(80 * 1024);
    expect(skips.skipped_binary_files).toBe(1);
  });
});
