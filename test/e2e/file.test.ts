import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runAh } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

function project() {
  const dir = tempDir();
  writeFileSync(join(dir, 'a.txt'), 'alpha\nbeta\ngamma\ndelta\n');
  return { dir, env: isolatedEnv().env };
}

async function json(args: string[], dir: string) {
  const r = await runAh(['--json', ...args], { cwd: dir });
  return { code: r.code, data: r.code === 0 ? r.json() : r.errorJson() };
}

describe('ah file', () => {
  it('reads a range with exact fields, in text and JSON', async () => {
    const { dir } = project();
    const { data } = await json(['file', 'read', 'a.txt', '--from', '2', '--to', '3'], dir);
    expect(data).toEqual({
      command: 'file.read',
      path: 'a.txt',
      from: 2,
      to: 3,
      numbered: false,
      line_count: 2,
      truncated: false,
      content: 'beta\ngamma',
    });
    const text = await runAh(['file', 'read', 'a.txt', '-n', '--from', '3'], { cwd: dir });
    expect(text.stdout).toBe('   3: gamma\n   4: delta\n');
  });

  it('head and tail report source line numbers', async () => {
    const { dir } = project();
    expect((await json(['file', 'head', 'a.txt', '--lines', '2'], dir)).data).toMatchObject({ from: 1, to: 2, content: 'alpha\nbeta' });
    expect((await json(['file', 'tail', 'a.txt', '--lines', '2'], dir)).data).toMatchObject({ from: 3, to: 4, content: 'gamma\ndelta' });
    expect((await json(['file', 'head', 'a.txt', '--lines', '0'], dir)).data).toMatchObject({ from: null, to: null, line_count: 0 });
  });

  it('stat and tree', async () => {
    const { dir } = project();
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'b.txt'), 'x');
    expect((await json(['file', 'stat', 'a.txt'], dir)).data).toMatchObject({ command: 'file.stat', kind: 'file', size_bytes: 23 });
    const tree = (await json(['file', 'tree'], dir)).data as { entries: { depth: number; name: string; kind: string; path: string }[] };
    expect(tree.entries.map((e) => [e.depth, e.path, e.kind])).toEqual([
      [0, '.', 'directory'],
      [1, 'a.txt', 'file'],
      [1, 'sub', 'directory'],
      [2, 'sub/b.txt', 'file'],
    ]);
    expect((await json(['file', 'tree', '--depth', '0'], dir)).data).toMatchObject({ entry_count: 1, max_depth: 0 });
    expect((await json(['--limit', '2', 'file', 'tree'], dir)).data).toMatchObject({ entry_count: 2, truncated: true });
  });

  it('refuses bad input with stable codes', async () => {
    const { dir } = project();
    writeFileSync(join(dir, 'bin.dat'), Buffer.from([0x61, 0x00, 0x62]));
    writeFileSync(join(dir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    writeFileSync(join(dir, 'huge.txt'), '');
    truncateSync(join(dir, 'huge.txt'), 9 * 1024 * 1024);
    symlinkSync('a.txt', join(dir, 'link.txt'));
    symlinkSync('loop2', join(dir, 'loop1'));
    symlinkSync('loop1', join(dir, 'loop2'));
    const code = async (args: string[]) => ((await json(args, dir)).data as { code: string }).code;
    expect(await code(['file', 'read', 'bin.dat'])).toBe('INVALID_ARGUMENT');
    expect(await code(['file', 'read', 'latin1.txt'])).toBe('INVALID_ARGUMENT');
    expect(await code(['file', 'read', 'huge.txt'])).toBe('INVALID_ARGUMENT');
    expect(await code(['file', 'read', 'a.txt', '--from', '3', '--to', '2'])).toBe('INVALID_RANGE');
    expect(await code(['file', 'read', 'a.txt', '--from', '0'])).toBe('INVALID_RANGE');
    expect(await code(['file', 'read', 'missing.txt'])).toBe('FILE_NOT_FOUND');
    expect(await code(['file', 'read', '.'])).toBe('PATH_INVALID_TYPE');
    expect(await code(['file', 'read', 'link.txt'])).toBe('SYMLINK_TRAVERSAL_BLOCKED');
    expect(await code(['file', 'read', 'loop1', '--follow-symlinks'])).toBe('PATH_INVALID_TYPE');
    expect(await code(['file', 'tree', 'missing'])).toBe('PATH_NOT_FOUND');
    expect((await json(['file', 'read', 'link.txt', '--follow-symlinks'], dir)).data).toMatchObject({
      content: 'alpha\nbeta\ngamma\ndelta',
    });
  });

  it('reports an unreadable file with FILE_READ_FAILED', async () => {
    // Tests run as root, so permissions cannot make a file unreadable; /proc/self/mem is a regular
    // file whose read fails with EIO.
    const r = await runAh(['--json', 'file', 'read', '/proc/self/mem']);
    expect(r.code).toBe(1);
    expect(r.errorJson()).toMatchObject({ code: 'FILE_READ_FAILED', domain: 'file' });
  });

  it('lists non-UTF-8 file names without failing', async () => {
    const { dir } = project();
    writeFileSync(Buffer.from(`${dir}/bad-\xff-name.txt`, 'latin1'), 'x');
    const r = await json(['file', 'tree'], dir);
    expect(r.code).toBe(0);
    expect((r.data as { entry_count: number }).entry_count).toBe(3);
  });
});
