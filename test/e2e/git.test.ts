import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runAh } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const identity = {
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.test',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.test',
  GIT_CONFIG_NOSYSTEM: '1',
};

function repo() {
  const dir = tempDir();
  const env = { ...isolatedEnv(identity).env };
  env.GIT_CONFIG_GLOBAL = join(env.HOME as string, '.gitconfig');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  return { dir, env, git };
}

async function json(dir: string, env: NodeJS.ProcessEnv, args: string[]) {
  const r = await runAh(['--json', ...args], { cwd: dir, env });
  return r.code === 0 ? r.json() : r.errorJson();
}

describe('ah git', () => {
  it('reports in_git_repo false outside a repository', async () => {
    const dir = tempDir();
    const env = isolatedEnv().env;
    expect(await json(dir, env, ['git', 'status'])).toMatchObject({ in_git_repo: false, branch: null, latest_commit: null });
    expect(await json(dir, env, ['git', 'changed'])).toMatchObject({ in_git_repo: false, entries: [] });
  });

  it('handles an empty repository', async () => {
    const { dir, env } = repo();
    expect(await json(dir, env, ['git', 'status'])).toMatchObject({
      in_git_repo: true,
      branch: 'main',
      clean: true,
      latest_commit: null,
      latest_tag: null,
    });
  });

  it('parses porcelain v2 paths with spaces, newlines, unicode and renames', async () => {
    const { dir, env, git } = repo();
    writeFileSync(join(dir, 'old name.txt'), 'a\n');
    writeFileSync(join(dir, 'keep.txt'), 'k\n');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    renameSync(join(dir, 'old name.txt'), join(dir, 'new -> näme.txt'));
    git('add', '-A');
    writeFileSync(join(dir, 'keep.txt'), 'changed\n');
    writeFileSync(join(dir, 'line\nbreak.txt'), 'x');
    const changed = (await json(dir, env, ['git', 'changed'])) as { entries: { path: string; old_path: string | null; status: string }[] };
    expect(changed.entries).toEqual([
      { path: 'keep.txt', old_path: null, status: 'modified' },
      { path: 'new -> näme.txt', old_path: 'old name.txt', status: 'renamed' },
      { path: 'line\nbreak.txt', old_path: null, status: 'untracked' },
    ]);
    const status = await json(dir, env, ['git', 'status']);
    expect(status).toMatchObject({
      clean: false,
      changed_count: 3,
      staged_count: 1,
      unstaged_count: 1,
      untracked_count: 1,
      latest_commit: { subject: 'first' },
    });
    expect(await json(dir, env, ['--limit', '1', 'git', 'changed'])).toMatchObject({ changed_count: 3, truncated: true });
  });

  it('reports upstream ahead/behind, diff, commit-info, blame, tags and remotes', async () => {
    const { dir, env, git } = repo();
    const bare = tempDir();
    execFileSync('git', ['init', '-q', '--bare', bare], { env });
    writeFileSync(join(dir, 'f.txt'), 'one\ntwo\n');
    git('add', '.');
    git('commit', '-q', '-m', 'base', '-m', 'body text');
    git('remote', 'add', 'origin', bare);
    git('push', '-q', '-u', 'origin', 'main');
    writeFileSync(join(dir, 'f.txt'), 'one\nTWO\n');
    git('commit', '-q', '-am', 'second');
    git('remote', 'add', 'gh', 'https://user:secret@github.com/acme/tool.git');
    expect(await json(dir, env, ['git', 'status'])).toMatchObject({ upstream: 'origin/main', ahead: 1, behind: 0 });
    const blame = (await json(dir, env, ['git', 'blame', 'f.txt', '--line', '2'])) as {
      entries: { line: number; summary: string; text: string; author: string }[];
    };
    expect(blame.entries).toEqual([expect.objectContaining({ line: 2, summary: 'second', text: 'TWO', author: 'Ada' })]);
    writeFileSync(join(dir, 'f.txt'), 'one\nthree\n');
    const diff = (await json(dir, env, ['git', 'diff'])) as { diff: string; line_count: number };
    expect(diff.diff).toContain('+three');
    expect(diff.diff.includes('\u001b[')).toBe(false);
    expect(await json(dir, env, ['--limit', '2', 'git', 'diff'])).toMatchObject({ line_count: 2, truncated: true });
    const info = (await json(dir, env, ['git', 'commit-info', 'HEAD~1'])) as { commit: Record<string, unknown> };
    expect(info.commit).toMatchObject({
      subject: 'base',
      body: 'body text\n',
      author: { name: 'Ada', email: 'ada@example.test' },
      file_count: 1,
      additions: 2,
      deletions: 0,
    });
    expect(await json(dir, env, ['git', 'commit-info', 'no-such-ref'])).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await json(dir, env, ['git', 'tag', 'create', 'v1'])).toMatchObject({
      tag: 'v1',
      annotated: false,
      target_commit: { subject: 'second' },
    });
    expect(await json(dir, env, ['git', 'tag', 'create', 'v0', '--ref', 'HEAD~1', '--message', 'old'])).toMatchObject({
      annotated: true,
      target_commit: { subject: 'base' },
    });
    expect(await json(dir, env, ['git', 'tag', 'create', 'v1'])).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await json(dir, env, ['git', 'tags'])).toMatchObject({ tag_count: 2 });
    expect(await json(dir, env, ['git', 'tags', '--latest'])).toMatchObject({ tag_count: 1, latest: true });
    const remotes = (await json(dir, env, ['git', 'remotes'])) as {
      remotes: { name: string; fetch_url: string; provider: string | null }[];
    };
    expect(remotes.remotes.find((r) => r.name === 'gh')).toEqual({
      name: 'gh',
      fetch_url: 'https://github.com/acme/tool.git',
      push_url: 'https://github.com/acme/tool.git',
      provider: 'github',
    });
  });

  it('reports a detached HEAD', async () => {
    const { dir, env, git } = repo();
    writeFileSync(join(dir, 'f.txt'), 'x');
    git('add', '.');
    git('commit', '-q', '-m', 'c');
    git('checkout', '-q', '--detach');
    expect(await json(dir, env, ['git', 'status'])).toMatchObject({ branch: null, in_git_repo: true });
  });

  it('fails clearly on a corrupted index and on a missing git binary', async () => {
    const { dir, env, git } = repo();
    writeFileSync(join(dir, 'f.txt'), 'x');
    git('add', '.');
    git('commit', '-q', '-m', 'c');
    writeFileSync(join(dir, '.git', 'index'), 'garbage garbage garbage');
    expect(await json(dir, env, ['git', 'status'])).toMatchObject({ code: 'COMMAND_FAILED' });
    const emptyPath = tempDir();
    mkdirSync(join(emptyPath, 'bin'));
    const noGit = { ...env, PATH: join(emptyPath, 'bin') };
    const r = await runAh(['--json', 'git', 'status'], { cwd: dir, env: { ...noGit, PATH: `${join(emptyPath, 'bin')}` } });
    expect(r.errorJson()).toMatchObject({ code: 'DEPENDENCY_MISSING' });
  });
});
