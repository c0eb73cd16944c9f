import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { commitInfo } from './commit-info.js';
import { call, gitEnv, makeRepo } from '../../../test/helpers/git.js';

const T0 = 1_700_000_000;

async function history() {
  const repo = await makeRepo();
  repo.write('a.txt', 'one\ntwo\n');
  repo.write('old name.txt', 'rename me please, I am long enough\n');
  await repo.commitAll('base', T0);
  repo.write('a.txt', 'one\nTWO\nthree\n');
  repo.write('img.bin', Buffer.from([0, 1, 2, 3, 255, 0]));
  renameSync(join(repo.dir, 'old name.txt'), join(repo.dir, 'new\nname.txt'));
  await repo.git(['add', '-A']);
  await repo.git(['commit', '-q', '-m', 'Second change', '-m', 'Body line one.\n\nBody line two.'], {
    env: { GIT_AUTHOR_DATE: `@${T0 + 60} +0200`, GIT_COMMITTER_DATE: `@${T0 + 120} +0000` },
  });
  return repo;
}

describe('git.commit-info', () => {
  it('describes HEAD with people, ISO dates and per-file stats', async () => {
    const repo = await history();
    const out = await call(commitInfo, {}, repo.ctx());
    const hash = (await repo.git(['rev-parse', 'HEAD'])).trim();
    expect(out).toEqual({
      command: 'git.commit-info',
      in_git_repo: true,
      reference: 'HEAD',
      commit: {
        hash,
        short_hash: hash.slice(0, 7),
        subject: 'Second change',
        body: 'Body line one.\n\nBody line two.',
        author: { name: 'Ada Lovelace', email: 'ada@example.test' },
        committer: { name: 'Charles Babbage', email: 'charles@example.test' },
        author_date: '2023-11-15T00:14:20+02:00',
        committer_date: '2023-11-14T22:15:20+00:00',
        file_count: 3,
        additions: 2,
        deletions: 1,
        truncated: false,
        files: [
          { path: 'a.txt', old_path: null, status: 'modified', additions: 2, deletions: 1 },
          { path: 'img.bin', old_path: null, status: 'added', additions: null, deletions: null },
          { path: 'new\nname.txt', old_path: 'old name.txt', status: 'renamed', additions: 0, deletions: 0 },
        ],
      },
    });
    const text = commitInfo.render?.(out) ?? '';
    expect(text).toContain(`commit ${hash}`);
    expect(text).toContain('    Second change');
    expect(text).toContain('old name.txt -> "new\\nname.txt"');
  });

  it('shows a root commit, caps files with the limit and peels annotated tags', async () => {
    const repo = await history();
    await repo.git(['tag', '-a', '-m', 'release notes', 'v1', 'HEAD~1']);
    const out = await call(commitInfo, { reference: 'v1' }, repo.ctx({ limit: 1 }));
    expect(out.reference).toBe('v1');
    expect(out.commit).toMatchObject({
      subject: 'base',
      body: '',
      author_date: '2023-11-14T22:13:20+00:00',
      file_count: 2,
      additions: 3,
      deletions: 0,
      truncated: true,
      files: [{ path: 'a.txt', old_path: null, status: 'added', additions: 2, deletions: 0 }],
    });
  });

  it('compares a merge with its first parent', async () => {
    const repo = await makeRepo();
    repo.write('base.txt', 'b\n');
    await repo.commitAll('base');
    await repo.git(['checkout', '-q', '-b', 'topic']);
    repo.write('topic.txt', 't\nt\n');
    await repo.commitAll('topic');
    await repo.git(['checkout', '-q', 'main']);
    repo.write('main.txt', 'm\n');
    await repo.commitAll('main');
    await repo.git(['merge', '-q', '--no-edit', 'topic']);
    const out = await call(commitInfo, {}, repo.ctx());
    expect(out.commit).toMatchObject({
      file_count: 1,
      additions: 2,
      files: [{ path: 'topic.txt', old_path: null, status: 'added', additions: 2, deletions: 0 }],
    });
  });

  it('rejects unknown references, option-like ones included', async () => {
    const repo = await history();
    for (const reference of ['no-such-ref', '--output=/tmp/ah-should-not-exist']) {
      await expect(call(commitInfo, { reference }, repo.ctx())).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: `unknown revision '${reference}'`,
        hint: expect.stringContaining('ah git tags'),
      });
    }
    const empty = await makeRepo();
    await expect(call(commitInfo, {}, empty.ctx())).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('returns commit null outside a repository', async () => {
    const out = await call(commitInfo, {}, testContext({ cwd: tempDir(), env: gitEnv() }));
    expect(out).toEqual({ command: 'git.commit-info', in_git_repo: false, reference: 'HEAD', commit: null });
  });
});
