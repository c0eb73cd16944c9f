import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pooledAndDirect } from '../../../test/helpers/local-entries.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { processLocalDirectories } from '../../platform/local-directories.js';
import { loadText } from './load-text.js';

/** What a read gives: the text, or the error's code and message. */
async function outcome(dir: string, path: string, follow: boolean): Promise<unknown> {
  try {
    return { text: await loadText(dir, path, 1024, follow) };
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return { code: e.code, message: e.message };
  }
}

const CASES: [string, boolean][] = [
  ['a.txt', false],
  ['big.txt', false],
  ['bin.dat', false],
  ['sub', false],
  ['link', false],
  ['link', true],
  ['dangling', true],
  ['loop', true],
  ['fifo', false],
  ['absent.txt', false],
];

// A file in a directory known to be on local file systems is opened on the calling thread; every
// other open goes through the thread pool. Both must give the same answer for every kind of entry.
describe('loadText: a synchronous open answers as the asynchronous one does', () => {
  it.each(CASES)('%s (follow symlinks: %s)', async (name, follow) => {
    const { pooled, direct } = await pooledAndDirect((dir) => outcome(dir, name, follow));
    expect(direct[1]).toEqual(pooled[1]);
  });

  it('reads what the file holds now, not what it held when the directory was learned', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    await processLocalDirectories().learn(dir);
    expect(await loadText(dir, 'a.txt', 1024, false)).toBe('one\n');
    writeFileSync(join(dir, 'a.txt'), 'two\n');
    expect(await loadText(dir, 'a.txt', 1024, false)).toBe('two\n');
  });
});
