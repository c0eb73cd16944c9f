/**
 * Reading a whole regular file of known size that must be text: the first read (64 KiB, which
 * holds the sniff window) comes alone, so a file with a NUL in its first SNIFF_BYTES is left
 * after it instead of after reading all of it. Most text files fit in that one read.
 */
import { readSync } from 'node:fs';
import { SNIFF_BYTES } from './text.js';

/** Bytes asked for by the first read of a file: most text files fit, and the sniff window does. */
export const FIRST_READ_BYTES = 64 * 1024;

/** Reads into buffer[from, to) until it is full or the file ends; returns the end of the data. */
function fill(fd: number, buffer: Buffer, from: number, to: number): number {
  let filled = from;
  while (filled < to) {
    const n = readSync(fd, buffer, filled, to - filled, null);
    if (n === 0) break;
    filled += n;
  }
  return filled;
}

/**
 * Reads up to `size` bytes from the descriptor's position: the bytes (fewer when the file ended
 * early), or null when a NUL in the sniff window marks the file binary.
 */
export function readUnlessBinarySync(fd: number, size: number): Buffer | null {
  const buffer = Buffer.allocUnsafe(size);
  const first = Math.min(size, FIRST_READ_BYTES);
  let filled = fill(fd, buffer, 0, first);
  if (buffer.subarray(0, Math.min(filled, SNIFF_BYTES)).includes(0)) return null;
  if (filled === first) filled = fill(fd, buffer, filled, size);
  return filled < size ? buffer.subarray(0, filled) : buffer;
}
