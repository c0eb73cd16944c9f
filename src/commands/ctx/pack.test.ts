import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { call } from '../../../test/helpers/git.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { pack } from './pack.js';

function project(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'src', 'lib'), { recursive: true });
  mkdirSync(join(dir, 'empty'));
  mkdirSync(join(dir, 'out'));
  writeFileSync(join(dir, 'README.md'), '# Demo\n\n## Usage\n');
  writeFileSync(join(dir, 'src', 'main.ts'), 'export function main() {}\nexport class App {}\n');
  writeFileSync(join(dir, 'src', 'lib', 'util.py'), 'def a():\n    pass\n\ndef b():\n    pass\n');
  writeFileSync(join(dir, 'out', 'gen.js'), 'function generated() {}\n');
  writeFileSync(join(dir, '.ignore'), 'out/\n');
  writeFileSync(join(dir, '.hidden.ts'), 'export function hidden() {}\n');
  // Valid UTF-8 for the first 8 KiB, invalid after: a binary skip, not a failure.
  writeFileSync(join(dir, 'src', 'late.txt'), Buffer.concat([Buffer.from('a'.repeat(9000)), Buffer.from([0xff, 0xfe])]));
  writeFileSync(join(dir, 'src', 'nul.bin'), Buffer.from([1, 0, 2]));
  writeFileSync(join(dir, 'src', 'huge.ts'), `// ${'x'.repeat(20000)}\n`);
  symlinkSync(join(dir, 'README.md'), join(dir, 'src', 'readme-link.md'));
  return dir;
}

describe('ctx.pack', () => {
  it('inventories files and their directories with sizes, lines and symbol previews, counting skips', async () => {
    const dir = project();
    const out = await call(pack, { max_bytes: 16384, preset: 'summary' }, testContext({ cwd: dir }));
    expect(out).toEqual({
      command: 'ctx.pack',
      preset: 'summary',
      roots: ['.'],
      item_count: 5,
      file_count: 3,
      directory_count: 2,
      symbol_count: 6,
      skipped_binary_files: 2,
      skipped_large_files: 1,
      skipped_symlink_files: 1,
      truncated: false,
      items: [
        {
          path: 'README.md',
          kind: 'file',
          size_bytes: 17,
          line_count: 3,
          symbol_count: 2,
          symbols: [
            { kind: 'heading', line: 1, name: 'Demo' },
            { kind: 'heading', line: 3, name: 'Usage' },
          ],
        },
        { path: 'src', kind: 'directory', size_bytes: 0, line_count: 0, symbol_count: 0, symbols: [] },
        { path: 'src/lib', kind: 'directory', size_bytes: 0, line_count: 0, symbol_count: 0, symbols: [] },
        {
          path: 'src/lib/util.py',
          kind: 'file',
          size_bytes: 37,
          line_count: 5,
          symbol_count: 2,
          symbols: [
            { kind: 'function', line: 1, name: 'a' },
            { kind: 'function', line: 4, name: 'b' },
          ],
        },
        {
          path: 'src/main.ts',
          kind: 'file',
          size_bytes: 46,
          line_count: 2,
          symbol_count: 2,
          symbols: [
            { kind: 'function', line: 1, name: 'main' },
            { kind: 'class', line: 2, name: 'App' },
          ],
        },
      ],
    });
    expect(pack.render?.(out)).toContain('src/main.ts  2 lines, 46 B  [main, App]');
  });

  it('stops at the limit (explicit limit over the preset) and sets truncated', async () => {
    const dir = project();
    const out = await call(pack, {}, testContext({ cwd: dir, limit: 2 }));
    expect(out).toMatchObject({ item_count: 2, truncated: true, items: [{ path: 'README.md' }, { path: 'src' }] });
  });

  it('takes several roots, files among them, and follows symlinks when asked', async () => {
    const dir = project();
    const out = await call(pack, { paths: ['README.md', 'src/lib'], follow_symlinks: true }, testContext({ cwd: dir }));
    expect(out.items.map((i) => i.path)).toEqual(['README.md', 'src/lib/util.py']);
    const followed = await call(pack, { paths: ['src'], follow_symlinks: true, max_bytes: 16384 }, testContext({ cwd: dir }));
    expect(followed.items.map((i) => i.path)).toContain('src/readme-link.md');
    expect(followed.skipped_symlink_files).toBe(0);
    await expect(call(pack, { paths: ['missing'] }, testContext({ cwd: dir }))).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' });
  });

  it('refuses a max_bytes over 64 MiB, as search text does', async () => {
    const dir = project();
    for (const max_bytes of [64 * 1024 * 1024 + 1, 1e300]) {
      await expect(call(pack, { max_bytes }, testContext({ cwd: dir }))).rejects.toThrow(/max_bytes/);
    }
    await expect(call(pack, { max_bytes: 64 * 1024 * 1024 }, testContext({ cwd: dir }))).resolves.toMatchObject({ command: 'ctx.pack' });
  });
});
