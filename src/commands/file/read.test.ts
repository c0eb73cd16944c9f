import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { lineCount } from '../../platform/text.js';
import { splitLines } from './load-text.js';
import { read } from './read.js';

const TEXTS = ['', 'a', 'a\n', 'a\nb', 'a\nb\n', '\n', '\n\n', 'a\n\n', 'a\r\nb\r\n', 'é\n😀\nz'];

const args = (extra: Record<string, unknown>) => ({
  path: 'f.txt',
  number_lines: false,
  max_bytes: 1 << 20,
  follow_symlinks: false,
  ...extra,
});

describe('file.read', () => {
  it('counts lines as splitLines does', () => {
    for (const text of TEXTS) expect(lineCount(text)).toBe(splitLines(text).length);
  });

  it('returns the same content and count for a whole file as for the widest range', async () => {
    const dir = tempDir('ah-read-');
    for (const text of TEXTS) {
      writeFileSync(join(dir, 'f.txt'), text);
      const whole = await read.run(args({}) as never, testContext({ cwd: dir }));
      const ranged = await read.run(args({ to: 1_000_000 }) as never, testContext({ cwd: dir }));
      expect({ ...whole, to: 1_000_000 }).toEqual(ranged);
      expect((whole as unknown as { to: unknown }).to).toBeNull();
    }
  });

  it('truncates a whole-file read at the limit', async () => {
    const dir = tempDir('ah-read-');
    writeFileSync(join(dir, 'f.txt'), 'one\ntwo\nthree\n');
    const r = await read.run(args({}) as never, testContext({ cwd: dir, limit: 2 }));
    expect(r).toMatchObject({ content: 'one\ntwo', line_count: 2, truncated: true });
    const fits = await read.run(args({}) as never, testContext({ cwd: dir, limit: 3 }));
    expect(fits).toMatchObject({ content: 'one\ntwo\nthree', line_count: 3, truncated: false });
  });
});
