import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { blame, parseBlame } from './blame.js';
import { call, gitEnv, makeRepo } from '../../../test/helpers/git.js';

const T0 = 1_700_000_000;

async function blamed() {
  const repo = await makeRepo();
  repo.write('dir/f.txt', 'one\ntwo\nthree\n');
  await repo.commitAll('first', T0);
  repo.write('dir/f.txt', 'one\nTWO\tüber\nthree\n');
  await repo.git(['commit', '-q', '-am', 'second'], {
    env: { GIT_AUTHOR_NAME: 'Grace Hopper', GIT_AUTHOR_EMAIL: 'grace@example.test', GIT_AUTHOR_DATE: `@${T0 + 5} +0000` },
  });
  const first = (await repo.git(['rev-parse', 'HEAD~1'])).trim();
  const second = (await repo.git(['rev-parse', 'HEAD'])).trim();
  return { repo, first, second };
}

describe('git.blame', () => {
  it('attributes every line', async () => {
    const { repo, first, second } = await blamed();
    const out = await call(blame, { path: 'dir/f.txt' }, repo.ctx());
    expect(out).toEqual({
      command: 'git.blame',
      path: 'dir/f.txt',
      line_filter: null,
      entry_count: 3,
      truncated: false,
      entries: [
        { line: 1, commit: first, author: 'Ada Lovelace', author_mail: 'ada@example.test', author_time: T0, summary: 'first', text: 'one' },
        {
          line: 2,
          commit: second,
          author: 'Grace Hopper',
          author_mail: 'grace@example.test',
          author_time: T0 + 5,
          summary: 'second',
          text: 'TWO\tüber',
        },
        {
          line: 3,
          commit: first,
          author: 'Ada Lovelace',
          author_mail: 'ada@example.test',
          author_time: T0,
          summary: 'first',
          text: 'three',
        },
      ],
    });
    expect(blame.render?.(out).split('\n')[1]).toBe(`${second.slice(0, 8)} (Grace Hopper         2) TWO\tüber`);
  });

  it('filters one line, caps with the limit and resolves paths from a subdirectory', async () => {
    const { repo, second } = await blamed();
    const one = await call(blame, { path: 'f.txt', line: 2 }, repo.ctx({ cwd: `${repo.dir}/dir` }));
    expect(one).toMatchObject({ path: 'f.txt', line_filter: 2, entry_count: 1, truncated: false });
    expect(one.entries).toEqual([expect.objectContaining({ line: 2, commit: second, text: 'TWO\tüber' })]);
    const capped = await call(blame, { path: 'dir/f.txt' }, repo.ctx({ limit: 2 }));
    expect(capped).toMatchObject({ entry_count: 2, truncated: true });
    expect(capped.entries.map((e) => e.line)).toEqual([1, 2]);
  });

  it('shows uncommitted lines with the all-zero commit', async () => {
    const { repo } = await blamed();
    repo.write('dir/f.txt', 'one\nTWO\tüber\nthree\nfour\n');
    const out = await call(blame, { path: 'dir/f.txt', line: 4 }, repo.ctx());
    expect(out.entries[0]).toMatchObject({ line: 4, commit: '0'.repeat(40), text: 'four' });
  });

  it('maps missing files, lines past the end and non-repositories to clear codes', async () => {
    const { repo } = await blamed();
    repo.write('untracked.txt', 'x\n');
    await expect(call(blame, { path: 'untracked.txt' }, repo.ctx())).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(call(blame, { path: 'nope.txt' }, repo.ctx())).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(call(blame, { path: 'dir/f.txt', line: 99 }, repo.ctx())).rejects.toMatchObject({ code: 'INVALID_RANGE' });
    await expect(call(blame, { path: 'f.txt' }, testContext({ cwd: tempDir(), env: gitEnv() }))).rejects.toMatchObject({
      code: 'COMMAND_FAILED',
      message: 'not a git repository',
    });
  });

  it('rejects a line below 1 in the schema', async () => {
    const { repo } = await blamed();
    await expect(call(blame, { path: 'dir/f.txt', line: 0 }, repo.ctx())).rejects.toThrow(/minimum|>=/);
  });
});

describe('parseBlame', () => {
  it('reuses commit headers given once', () => {
    const hash = 'a'.repeat(40);
    const text = [
      `${hash} 1 1 2`,
      'author A',
      'author-mail <a@x>',
      'author-time 5',
      'summary s',
      'filename f',
      '\tfirst',
      `${hash} 2 2`,
      'filename f',
      '\tsecond',
      '',
    ].join('\n');
    expect(parseBlame(text)).toEqual([
      { line: 1, commit: hash, author: 'A', author_mail: 'a@x', author_time: 5, summary: 's', text: 'first' },
      { line: 2, commit: hash, author: 'A', author_mail: 'a@x', author_time: 5, summary: 's', text: 'second' },
    ]);
  });
});
