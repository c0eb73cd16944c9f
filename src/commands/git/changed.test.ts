import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { changed } from './changed.js';
import { call, gitEnv, makeRepo } from '../../../test/helpers/git.js';

describe('git.changed', () => {
  it('lists entries with exact paths, keeping old_path for renames', async () => {
    const repo = await makeRepo();
    repo.write('old name.txt', 'same content here\n');
    repo.write('keep.txt', 'k\n');
    repo.write('gone.txt', 'g\n');
    await repo.commitAll('first');
    renameSync(join(repo.dir, 'old name.txt'), join(repo.dir, 'new -> näme.txt'));
    await repo.git(['add', '-A']);
    repo.write('keep.txt', 'changed\n');
    rmSync(join(repo.dir, 'gone.txt'));
    repo.write('line\nbreak.txt', 'x');
    repo.write('ünïcødé dir/файл.txt', 'x');
    repo.write('added.txt', 'a');
    await repo.git(['add', 'added.txt']);
    const out = await call(changed, {}, repo.ctx());
    expect(out).toEqual({
      command: 'git.changed',
      in_git_repo: true,
      changed_count: 6,
      truncated: false,
      entries: [
        { path: 'added.txt', old_path: null, status: 'added' },
        { path: 'gone.txt', old_path: null, status: 'deleted' },
        { path: 'keep.txt', old_path: null, status: 'modified' },
        { path: 'new -> näme.txt', old_path: 'old name.txt', status: 'renamed' },
        { path: 'line\nbreak.txt', old_path: null, status: 'untracked' },
        { path: 'ünïcødé dir/файл.txt', old_path: null, status: 'untracked' },
      ],
    });
    expect(changed.render?.(out)).toBe(
      [
        'A  added.txt',
        'D  gone.txt',
        'M  keep.txt',
        'R  old name.txt -> new -> näme.txt',
        '?? "line\\nbreak.txt"',
        '?? ünïcødé dir/файл.txt',
      ].join('\n'),
    );
  });

  it('caps entries with the limit and keeps the total', async () => {
    const repo = await makeRepo();
    for (const name of ['a', 'b', 'c']) repo.write(name, name);
    const out = await call(changed, {}, repo.ctx({ limit: 2 }));
    expect(out).toMatchObject({ changed_count: 3, truncated: true, entries: [{ path: 'a' }, { path: 'b' }] });
    expect(changed.render?.(out).split('\n').at(-1)).toBe('[showing 2 of 3 changed paths]');
  });

  it('reports a clean tree and a non-repository', async () => {
    const repo = await makeRepo();
    await repo.commitAll('empty');
    const clean = await call(changed, {}, repo.ctx());
    expect(clean).toEqual({ command: 'git.changed', in_git_repo: true, changed_count: 0, truncated: false, entries: [] });
    expect(changed.render?.(clean)).toBe('no changes');
    const outside = await call(changed, {}, testContext({ cwd: tempDir(), env: gitEnv() }));
    expect(outside).toEqual({ command: 'git.changed', in_git_repo: false, changed_count: 0, truncated: false, entries: [] });
  });
});
