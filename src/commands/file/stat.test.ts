import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { processLocalDirectories } from '../../platform/local-directories.js';
import { stat } from './stat.js';

/** What file.stat gives for `path` in `dir`: the result, or the error's code and message. */
async function outcome(dir: string, path: string): Promise<unknown> {
  try {
    return await stat.run({ path } as never, testContext({ cwd: dir }));
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return { code: e.code, message: e.message };
  }
}

function populate(dir: string): void {
  writeFileSync(join(dir, 'a.txt'), 'alpha\n');
  mkdirSync(join(dir, 'sub'));
  symlinkSync('a.txt', join(dir, 'link'));
  symlinkSync('missing', join(dir, 'dangling'));
  execFileSync('mkfifo', [join(dir, 'fifo')]);
}

// In a directory known to be on local file systems the lstat runs on the calling thread; anywhere
// else through the thread pool. The answers must not differ.
describe('file.stat: a synchronous lstat answers as the asynchronous one does', () => {
  it.each(['a.txt', 'sub', 'link', 'dangling', 'fifo', 'absent', 'link/', 'sub/../a.txt'])('%s', async (name) => {
    const local = processLocalDirectories();
    const fresh = tempDir();
    populate(fresh);
    expect(local.trusted(fresh)).toBe(false);
    // Joined by hand: path.join would normalise `sub/../a.txt`.
    const viaPool = await outcome(fresh, `${fresh}/${name}`);
    const known = tempDir();
    populate(known);
    await local.learn(known);
    expect(local.trusted(known)).toBe(true);
    // Same times and sizes in both trees: only the path and the times may differ, and the times
    // are compared by kind (a number or null).
    const normalise = (o: unknown, dir: string) =>
      JSON.parse(JSON.stringify(o).replaceAll(dir, '<dir>'), (key, value) =>
        key.endsWith('_unix_seconds') ? (value === null ? null : 'n') : value,
      );
    expect(normalise(await outcome(known, `${known}/${name}`), known)).toEqual(normalise(viaPool, fresh));
  });
});
