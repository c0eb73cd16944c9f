/**
 * File commands take some lookups on the calling thread in a directory known to be local
 * (src/platform/local-directories.ts) and through the thread pool anywhere else. These helpers let a
 * test ask the same question both ways, on trees with every kind of entry.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { processLocalDirectories } from '../../src/platform/local-directories.js';
import { tempDir } from './tmp.js';

/** Entries of every kind the file commands must tell apart. */
export function populateEntries(dir: string): void {
  writeFileSync(join(dir, 'a.txt'), 'alpha\n');
  writeFileSync(join(dir, 'big.txt'), 'x'.repeat(2048));
  writeFileSync(join(dir, 'bin.dat'), Buffer.from([0x61, 0, 0x62]));
  mkdirSync(join(dir, 'sub'));
  symlinkSync('a.txt', join(dir, 'link'));
  symlinkSync('missing', join(dir, 'dangling'));
  symlinkSync('loop', join(dir, 'loop'));
  execFileSync('mkfifo', [join(dir, 'fifo')]);
}

/**
 * `outcome` on a fresh tree, whose directory is not trusted yet (the thread pool), and on a tree
 * whose directory was learned as local (the calling thread); each with the directory it ran in.
 */
export async function pooledAndDirect<T>(outcome: (dir: string) => Promise<T>): Promise<{ pooled: [string, T]; direct: [string, T] }> {
  const local = processLocalDirectories();
  const fresh = tempDir();
  populateEntries(fresh);
  // The first lookup in a directory goes through the pool: its trust is only learned in the background.
  expect(local.trusted(fresh)).toBe(false);
  const pooled: [string, T] = [fresh, await outcome(fresh)];
  const known = tempDir();
  populateEntries(known);
  await local.learn(known);
  expect(local.trusted(known)).toBe(true);
  return { pooled, direct: [known, await outcome(known)] };
}
