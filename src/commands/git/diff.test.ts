import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { diff } from './diff.js';
import { call, gitEnv, makeRepo } from '../../../test/helpers/git.js';

async function repoWithChanges() {
  const repo = await makeRepo();
  repo.write('a.txt', 'one\ntwo\n');
  repo.write('dir/b c.txt', 'x\n');
  repo.write('staged.txt', 's\n');
  await repo.commitAll('base');
  repo.write('a.txt', 'one\nTWO\n');
  repo.write('dir/b c.txt', 'y\n');
  repo.write('staged.txt', 'staged change\n');
  await repo.git(['add', 'staged.txt']);
  // Colour forced in config must not reach the output.
  await repo.git(['config', 'color.ui', 'always']);
  return repo;
}

describe('git.diff', () => {
  it('returns the raw unstaged diff without colour', async () => {
    const repo = await repoWithChanges();
    const out = await call(diff, {}, repo.ctx());
    expect(out.in_git_repo).toBe(true);
    expect(out.path_filter).toBeNull();
    expect(out.truncated).toBe(false);
    expect(out.diff).toContain('diff --git a/a.txt b/a.txt');
    expect(out.diff).toContain('-two\n+TWO');
    expect(out.diff).toContain('+y');
    expect(out.diff).not.toContain('staged change');
    expect(out.diff).not.toContain('\u001b[');
    expect(out.line_count).toBe(out.diff.split('\n').length);
    expect(diff.render?.(out)).toBe(out.diff);
  });

  it('filters by path and caps lines with the limit', async () => {
    const repo = await repoWithChanges();
    const one = await call(diff, { path: 'dir/b c.txt' }, repo.ctx());
    expect(one.path_filter).toBe('dir/b c.txt');
    expect(one.diff).not.toContain('a.txt');
    expect(one.diff).toContain('+y');
    const capped = await call(diff, {}, repo.ctx({ limit: 3 }));
    expect(capped).toMatchObject({ line_count: 3, truncated: true });
    expect(capped.diff.split('\n')).toHaveLength(3);
    expect(diff.render?.(capped).split('\n').at(-1)).toBe('[truncated after 3 lines]');
  });

  it('reports an empty diff and a non-repository', async () => {
    const repo = await makeRepo();
    await repo.commitAll('empty');
    const empty = await call(diff, {}, repo.ctx());
    expect(empty).toEqual({ command: 'git.diff', in_git_repo: true, path_filter: null, line_count: 0, truncated: false, diff: '' });
    expect(diff.render?.(empty)).toBe('no unstaged changes');
    const outside = await call(diff, { path: 'x' }, testContext({ cwd: tempDir(), env: gitEnv() }));
    expect(outside).toEqual({ command: 'git.diff', in_git_repo: false, path_filter: 'x', line_count: 0, truncated: false, diff: '' });
  });
});
