import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/tmp.js';
import {
  closeFd,
  listDirectory,
  lstatPath,
  makeDirectory,
  openFd,
  readTextFile,
  realPath,
  statPath,
  unlinkPath,
  writeFd,
} from './fs-callback.js';

describe('fs-callback', () => {
  it('appends, lists, stats, resolves and removes as node:fs/promises does', async () => {
    const dir = join(tempDir('ah-fs-callback-'), 'a', 'b');
    await makeDirectory(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'log.txt');
    for (const line of ['one\n', 'two\n']) {
      const fd = await openFd(file, 'a', 0o600);
      const data = Buffer.from(`xx${line}`);
      expect(await writeFd(fd, data, 2)).toEqual({ bytesWritten: line.length });
      await closeFd(fd);
    }
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
    expect(await readTextFile(file)).toBe('one\ntwo\n');
    symlinkSync(file, join(dir, 'link'));
    expect((await listDirectory(dir)).sort()).toEqual(['link', 'log.txt']);
    expect((await statPath(join(dir, 'link'))).isFile()).toBe(true);
    expect((await lstatPath(join(dir, 'link'))).isSymbolicLink()).toBe(true);
    expect(await realPath(join(dir, 'link'))).toBe(await realPath(file));
    await unlinkPath(file);
    expect(await listDirectory(dir)).toEqual(['link']);
  });

  it('rejects with the system error', async () => {
    const missing = join(tempDir('ah-fs-callback-'), 'missing');
    // One call at a time: a promise made before its expectation is attached could reject unhandled.
    const attempts = [
      () => readTextFile(missing),
      () => statPath(missing),
      () => listDirectory(missing),
      () => unlinkPath(missing),
      () => openFd(missing, 'r'),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(closeFd(987654)).rejects.toMatchObject({ code: 'EBADF' });
  });
});
