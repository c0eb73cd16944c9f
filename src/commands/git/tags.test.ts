import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { call, gitEnv, makeRepo } from '../../../test/helpers/git.js';
import { tags } from './tags.js';

const T0 = 1_700_000_000;

async function tagged() {
  const repo = await makeRepo();
  await repo.commitAll('one', T0);
  await repo.git(['tag', 'v1.0.0']);
  await repo.commitAll('two', T0 + 100);
  await repo.git(['tag', '-a', '-m', 'annotated', 'v2.0.0'], { env: { GIT_COMMITTER_DATE: `@${T0 + 300} +0000` } });
  await repo.commitAll('three', T0 + 200);
  await repo.git(['tag', 'v1.5.0']);
  return repo;
}

describe('git.tags', () => {
  it('lists tags newest first by creation date', async () => {
    const repo = await tagged();
    const out = await call(tags, {}, repo.ctx());
    expect(out).toEqual({
      command: 'git.tags',
      in_git_repo: true,
      latest: false,
      tag_count: 3,
      tags: [{ name: 'v2.0.0' }, { name: 'v1.5.0' }, { name: 'v1.0.0' }],
      truncated: false,
    });
    expect(tags.render?.(out)).toBe('v2.0.0\nv1.5.0\nv1.0.0');
  });

  it('returns only the newest tag with latest, and caps with the limit', async () => {
    const repo = await tagged();
    expect(await call(tags, { latest: true }, repo.ctx())).toMatchObject({
      latest: true,
      tag_count: 1,
      tags: [{ name: 'v2.0.0' }],
      truncated: false,
    });
    expect(await call(tags, {}, repo.ctx({ limit: 2 }))).toMatchObject({
      tag_count: 2,
      tags: [{ name: 'v2.0.0' }, { name: 'v1.5.0' }],
      truncated: true,
    });
    expect(await call(tags, {}, repo.ctx({ limit: 3 }))).toMatchObject({ tag_count: 3, truncated: false });
  });

  it('handles no tags and non-repositories', async () => {
    const repo = await makeRepo();
    const none = await call(tags, {}, repo.ctx());
    expect(none).toMatchObject({ in_git_repo: true, tag_count: 0, tags: [] });
    expect(tags.render?.(none)).toBe('no tags');
    const outside = await call(tags, { latest: true }, testContext({ cwd: tempDir(), env: gitEnv() }));
    expect(outside).toEqual({ command: 'git.tags', in_git_repo: false, latest: true, tag_count: 0, tags: [], truncated: false });
  });
});
