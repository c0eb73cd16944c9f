import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/tmp.js';
import { testContext } from '../../../test/helpers/context.js';
import { call, gitEnv, makeRepo, runGit } from '../../../test/helpers/git.js';
import { status } from './status.js';

describe('git.status', () => {
  it('reports in_git_repo false outside a repository, not an error', async () => {
    const out = await call(status, {}, testContext({ cwd: tempDir(), env: gitEnv() }));
    expect(out).toEqual({
      command: 'git.status',
      in_git_repo: false,
      branch: null,
      upstream: null,
      ahead: null,
      behind: null,
      clean: true,
      changed_count: 0,
      staged_count: 0,
      unstaged_count: 0,
      untracked_count: 0,
      latest_commit: null,
      latest_tag: null,
    });
    expect(status.render?.(out)).toBe('not a git repository');
  });

  it('handles an empty repository', async () => {
    const repo = await makeRepo();
    const out = await call(status, {}, repo.ctx());
    expect(out).toMatchObject({ in_git_repo: true, branch: 'main', upstream: null, ahead: null, behind: null, clean: true });
    expect(out.latest_commit).toBeNull();
    expect(out.latest_tag).toBeNull();
  });

  it('counts staged, unstaged and untracked paths and reports the latest commit and tag', async () => {
    const repo = await makeRepo();
    repo.write('a.txt', 'a\n');
    repo.write('b.txt', 'b\n');
    repo.write('c.txt', 'c\n');
    await repo.commitAll('first commit');
    await repo.git(['tag', 'v0.1.0']);
    repo.write('a.txt', 'staged\n');
    await repo.git(['add', 'a.txt']);
    repo.write('b.txt', 'unstaged\n');
    repo.write('c.txt', 'staged\n');
    await repo.git(['add', 'c.txt']);
    repo.write('c.txt', 'and unstaged\n');
    repo.write('dir/new one.txt', 'n\n');
    repo.write('dir/new two.txt', 'n\n');
    const out = await call(status, {}, repo.ctx());
    const head = (await repo.git(['rev-parse', 'HEAD'])).trim();
    expect(out).toEqual({
      command: 'git.status',
      in_git_repo: true,
      branch: 'main',
      upstream: null,
      ahead: null,
      behind: null,
      clean: false,
      changed_count: 5,
      staged_count: 2,
      unstaged_count: 2,
      untracked_count: 2,
      latest_commit: { hash: head, short_hash: head.slice(0, 7), subject: 'first commit' },
      latest_tag: 'v0.1.0',
    });
    expect(status.render?.(out)).toBe(
      [
        'on main',
        '5 changed: 2 staged, 2 unstaged, 2 untracked',
        `latest commit: ${head.slice(0, 7)} first commit`,
        'latest tag: v0.1.0',
      ].join('\n'),
    );
  });

  it('reports ahead and behind against a local bare upstream', async () => {
    const repo = await makeRepo();
    const bare = tempDir('ah-git-bare-');
    await runGit(bare, repo.env, ['init', '-q', '--bare', '-b', 'main']);
    repo.write('f.txt', '1\n');
    await repo.commitAll('one');
    await repo.git(['remote', 'add', 'origin', bare]);
    await repo.git(['push', '-q', '-u', 'origin', 'main']);
    // Another clone pushes one commit; we fetch it and make two of our own.
    const other = tempDir('ah-git-other-');
    await runGit(other, repo.env, ['clone', '-q', bare, '.']);
    writeFileSync(join(other, 'g.txt'), 'x\n');
    await runGit(other, repo.env, ['add', '.']);
    await runGit(other, repo.env, ['commit', '-q', '-m', 'theirs']);
    await runGit(other, repo.env, ['push', '-q']);
    await repo.git(['fetch', '-q']);
    await repo.commitAll('mine 1');
    await repo.commitAll('mine 2');
    const out = await call(status, {}, repo.ctx());
    expect(out).toMatchObject({ branch: 'main', upstream: 'origin/main', ahead: 2, behind: 1, clean: true });
    expect(status.render?.(out).split('\n')[0]).toBe('on main (origin/main: ahead 2, behind 1)');
  });

  it('keeps ahead/behind null when the upstream branch is gone', async () => {
    const repo = await makeRepo();
    await repo.commitAll('one');
    await repo.git(['branch', 'base']);
    await repo.git(['branch', '--set-upstream-to=base']);
    await repo.git(['branch', '-D', 'base']);
    const out = await call(status, {}, repo.ctx());
    expect(out).toMatchObject({ upstream: 'base', ahead: null, behind: null });
    expect(status.render?.(out).split('\n')[0]).toBe('on main (upstream base is gone)');
  });

  it('reports a detached HEAD as branch null', async () => {
    const repo = await makeRepo();
    await repo.commitAll('one');
    await repo.git(['checkout', '-q', '--detach']);
    const out = await call(status, {}, repo.ctx());
    expect(out).toMatchObject({ in_git_repo: true, branch: null, latest_commit: { subject: 'one' } });
    expect(status.render?.(out).split('\n')[0]).toBe('on a detached HEAD');
  });

  it('works from a subdirectory and counts a conflict as unstaged', async () => {
    const repo = await makeRepo();
    repo.write('sub/f.txt', 'base\n');
    await repo.commitAll('base');
    await repo.git(['checkout', '-q', '-b', 'other']);
    repo.write('sub/f.txt', 'other\n');
    await repo.commitAll('other');
    await repo.git(['checkout', '-q', 'main']);
    repo.write('sub/f.txt', 'main\n');
    await repo.commitAll('main');
    await repo.git(['merge', '-q', 'other']).catch(() => undefined);
    const out = await call(status, {}, repo.ctx({ cwd: join(repo.dir, 'sub') }));
    expect(out).toMatchObject({ changed_count: 1, staged_count: 0, unstaged_count: 1, untracked_count: 0 });
  });

  it('maps a missing git binary to DEPENDENCY_MISSING', async () => {
    const repo = await makeRepo();
    const emptyBin = tempDir('ah-no-git-');
    await expect(call(status, {}, repo.ctx({ env: { ...repo.env, PATH: emptyBin } }))).rejects.toMatchObject({
      code: 'DEPENDENCY_MISSING',
      hint: expect.stringMatching(/install git/i),
    });
  });

  it('fails with COMMAND_FAILED and git stderr on a corrupted index', async () => {
    const repo = await makeRepo();
    repo.write('f.txt', 'x\n');
    await repo.commitAll('one');
    writeFileSync(join(repo.dir, '.git', 'index'), 'this is not an index file at all');
    const error = await call(status, {}, repo.ctx()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'COMMAND_FAILED', detail: expect.stringMatching(/index/i), hint: expect.stringMatching(/index/) });
  });

  it('stops promptly when cancelled', async () => {
    const repo = await makeRepo();
    const ctx = repo.ctx();
    ctx.controller.abort();
    await expect(call(status, {}, ctx)).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
  });
});
