import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { call, gitEnv, makeRepo } from '../../../test/helpers/git.js';
import { tagCreate } from './tag-create.js';

async function twoCommits() {
  const repo = await makeRepo();
  await repo.commitAll('first');
  await repo.commitAll('second');
  const head = (await repo.git(['rev-parse', 'HEAD'])).trim();
  const parent = (await repo.git(['rev-parse', 'HEAD~1'])).trim();
  return { repo, head, parent };
}

describe('git.tag.create', () => {
  it('creates a lightweight tag at HEAD by default', async () => {
    const { repo, head } = await twoCommits();
    const out = await call(tagCreate, { tag: 'v1.0.0' }, repo.ctx());
    expect(out).toEqual({
      command: 'git.tag.create',
      in_git_repo: true,
      tag: 'v1.0.0',
      reference: 'HEAD',
      annotated: false,
      target_commit: { hash: head, short_hash: head.slice(0, 7), subject: 'second' },
    });
    expect((await repo.git(['cat-file', '-t', 'refs/tags/v1.0.0'])).trim()).toBe('commit');
    expect(tagCreate.render?.(out)).toBe(`created lightweight tag v1.0.0 at ${head.slice(0, 7)} second`);
  });

  it('creates an annotated tag with a message at another revision', async () => {
    const { repo, parent } = await twoCommits();
    const out = await call(tagCreate, { tag: 'v0.9.0', message: '-not an option\nsecond line', reference: 'HEAD~1' }, repo.ctx());
    expect(out).toMatchObject({ reference: 'HEAD~1', annotated: true, target_commit: { hash: parent, subject: 'first' } });
    expect((await repo.git(['cat-file', '-t', 'refs/tags/v0.9.0'])).trim()).toBe('tag');
    expect(await repo.git(['tag', '-l', '--format=%(contents)', 'v0.9.0'])).toBe('-not an option\nsecond line\n\n');
  });

  it('refuses to move an existing tag', async () => {
    const { repo, head } = await twoCommits();
    await call(tagCreate, { tag: 'v1' }, repo.ctx());
    await expect(call(tagCreate, { tag: 'v1', reference: 'HEAD~1' }, repo.ctx())).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: "tag 'v1' already exists",
      hint: expect.stringContaining('git tag -d'),
    });
    expect((await repo.git(['rev-parse', 'v1'])).trim()).toBe(head);
  });

  it('rejects bad names and unknown revisions', async () => {
    const { repo } = await twoCommits();
    await expect(call(tagCreate, { tag: 'bad..name' }, repo.ctx())).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(call(tagCreate, { tag: '--force' }, repo.ctx())).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(call(tagCreate, { tag: 'v2', reference: 'no-such-commit' }, repo.ctx())).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: "unknown revision 'no-such-commit'",
    });
    const empty = await makeRepo();
    await expect(call(tagCreate, { tag: 'v1' }, empty.ctx())).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await repo.git(['tag', '-l'])).toBe('');
  });

  it('creates nothing outside a repository', async () => {
    const out = await call(tagCreate, { tag: 'v1', message: 'm' }, testContext({ cwd: tempDir(), env: gitEnv() }));
    expect(out).toEqual({
      command: 'git.tag.create',
      in_git_repo: false,
      tag: 'v1',
      reference: 'HEAD',
      annotated: true,
      target_commit: null,
    });
  });

  it('declares a medium-risk, reversible write', () => {
    expect(tagCreate.effects).toMatchObject({
      readOnly: false,
      destructive: false,
      idempotent: false,
      risk: 'medium',
      reversibility: 'yes',
      effects: ['filesystem_write', 'process_spawn'],
    });
  });
});
