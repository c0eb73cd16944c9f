import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesRead, threadIoCounted } from '../../test/helpers/thread-io.js';
import { tempDir } from '../../test/helpers/tmp.js';
import { readUnlessBinarySync } from './sniffed-read.js';

/** readUnlessBinarySync over a fresh file holding `bytes`, asked for `size` bytes. */
function read(bytes: Buffer, size = bytes.length): Buffer | null {
  const path = join(tempDir(), 'f');
  writeFileSync(path, bytes);
  const fd = openSync(path, 'r');
  try {
    return readUnlessBinarySync(fd, size);
  } finally {
    closeSync(fd);
  }
}

describe('readUnlessBinarySync', () => {
  it('reads a text file longer than the first read whole, and a shorter one as far as it goes', () => {
    const long = Buffer.alloc(200 * 1024, 'a');
    expect(read(long)?.equals(long)).toBe(true);
    const short = Buffer.from('only this');
    expect(read(short, 100)?.toString()).toBe('only this');
  });

  it('refuses a NUL in the sniff window only', () => {
    const early = Buffer.alloc(100 * 1024, 'a');
    early[8191] = 0;
    expect(read(early)).toBeNull();
    const late = Buffer.alloc(100 * 1024, 'a');
    late[8192] = 0;
    expect(read(late)?.length).toBe(late.length);
  });

  it.skipIf(!threadIoCounted)('leaves a binary file after its first read', () => {
    const bytes = Buffer.alloc(4 * 1024 * 1024, 'a');
    bytes[0] = 0;
    const path = join(tempDir(), 'big.bin');
    writeFileSync(path, bytes);
    const fd = openSync(path, 'r');
    try {
      const before = bytesRead();
      expect(readUnlessBinarySync(fd, bytes.length)).toBeNull();
      // The first read (64 KiB) and this thread's read of its own counters, not the 4 MiB.
      expect(bytesRead() - before).toBeLessThan(80 * 1024);
    } finally {
      closeSync(fd);
    }
  });
});
