import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { pooledAndDirect } from '../../../test/helpers/local-entries.js';
import { stat } from './stat.js';

/**
 * What file.stat gives for `name` in `dir`, with the directory written as `<dir>` and each time as
 * its kind (a number or null): the two trees were made at different moments.
 */
async function outcome(dir: string, name: string): Promise<unknown> {
  let result: unknown;
  try {
    // Joined by hand: path.join would normalise `sub/../a.txt`.
    result = await stat.run({ path: `${dir}/${name}` } as never, testContext({ cwd: dir }));
  } catch (error) {
    const e = error as { code?: string; message?: string };
    result = { code: e.code, message: e.message };
  }
  return JSON.parse(JSON.stringify(result).replaceAll(dir, '<dir>'), (key, value) =>
    key.endsWith('_unix_seconds') ? (value === null ? null : 'n') : value,
  );
}

// In a directory known to be on local file systems the lstat runs on the calling thread; anywhere
// else through the thread pool. The answers must not differ.
describe('file.stat: a synchronous lstat answers as the asynchronous one does', () => {
  it.each(['a.txt', 'big.txt', 'sub', 'link', 'dangling', 'loop', 'fifo', 'absent', 'link/', 'sub/../a.txt'])('%s', async (name) => {
    const { pooled, direct } = await pooledAndDirect((dir) => outcome(dir, name));
    expect(direct[1]).toEqual(pooled[1]);
  });
});
