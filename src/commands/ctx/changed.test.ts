import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, makeRepo } from '../../../test/helpers/git.js';
import { changed } from './changed.js';

describe('ctx.changed', () => {
  it('lists the changed set from one porcelain snapshot, names with newlines kept whole', async () => {
    const repo = await makeRepo();
    repo.write('keep.txt', 'k\n');
    repo.write('gone.txt', 'g\n');
    await repo.commitAll('first');
    repo.write('keep.txt', 'changed\n');
    rmSync(join(repo.dir, 'gone.txt'));
    repo.write('new\nline.ts', 'x');
    const out = await call(changed, {}, repo.ctx());
    expect(out).toEqual({
      command: 'ctx.changed',
      in_git_repo: true,
      changed_count: 3,
      entries: [
        { path: 'gone.txt', old_path: null, status: 'deleted' },
        { path: 'keep.txt', old_path: null, status: 'modified' },
        { path: 'new\nline.ts', old_path: null, status: 'untracked' },
      ],
    });
    expect(changed.render?.(out)).toBe('deleted      gone.txt\nmodified     keep.txt\nuntracked    "new\\nline.ts"');
  });

  it('reports in_git_repo false outside a repository', async () => {
    const plain = await makeRepo({ init: false });
    const out = await call(changed, {}, plain.ctx());
    expect(out).toEqual({ command: 'ctx.changed', in_git_repo: false, changed_count: 0, entries: [] });
    expect(changed.render?.(out)).toBe('not a git repository');
  });
});
