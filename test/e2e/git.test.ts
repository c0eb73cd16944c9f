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

/** A repository on main with a private global config (the real ~/.gitconfig is never read). */
function repo() {
  const dir = tempDir();
  const { env, home } = isolatedEnv(identity);
  env.GIT_CONFIG_GLOBAL = join(home, '.gitconfig');
  writeFileSync(env.GIT_CONFIG_GLOBAL, '');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  return { dir, env, git };
}

async function json(dir: string, env: NodeJS.ProcessEnv, args: string[]) {
  const r = await runAh(['--json', ...args], { cwd: dir, env });
  return r.code === 0 ? r.json() : { exit: r.code, ...r.errorJson() };
}

async function text(dir: string, env: NodeJS.ProcessEnv, args: string[]) {
  const r = await runAh(args, { cwd: dir, env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.replace(/\n$/, '');
}

describe('ah git', () => {
  it('reports in_git_repo false outside a repository', async () => {
    const dir = tempDir();
    const env = isolatedEnv().env;
    expect(await json(dir, env, ['git', 'status'])).toMatchObject({
      command: 'git.status',
      in_git_repo: false,
      branch: null,
      latest_commit: null,
    });
    expect(await json(dir, env, ['git', 'changed'])).toMatchObject({ in_git_repo: false, entries: [] });
    expect(await text(dir, env, ['git', 'status'])).toBe('not a git repository');
  });

  it('handles an empty repository', async () => {
    const { dir, env } = repo();
    expect(await json(dir, env, ['git', 'status'])).toEqual({
      command: 'git.status',
      in_git_repo: true,
      branch: 'main',
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
    expect(await text(dir, env, ['git', 'status'])).toBe('on main\nworking tree clean\nno commits yet');
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
    const changed = await json(dir, env, ['git', 'changed']);
    expect(changed).toEqual({
      command: 'git.changed',
      in_git_repo: true,
      changed_count: 3,
      truncated: false,
      entries: [
        { path: 'keep.txt', old_path: null, status: 'modified' },
        { path: 'new -> näme.txt', old_path: 'old name.txt', status: 'renamed' },
        { path: 'line\nbreak.txt', old_path: null, status: 'untracked' },
      ],
    });
    expect(await text(dir, env, ['git', 'changed'])).toBe('M  keep.txt\nR  old name.txt -> new -> näme.txt\n?? "line\\nbreak.txt"');
    const status = await json(dir, env, ['git', 'status']);
    expect(status).toMatchObject({
      clean: false,
      changed_count: 3,
      staged_count: 1,
      unstaged_count: 1,
      untracked_count: 1,
      latest_commit: { subject: 'first' },
    });
    expect(await json(dir, env, ['--limit', '1', 'git', 'changed'])).toMatchObject({
      changed_count: 3,
      truncated: true,
      entries: [{ path: 'keep.txt' }],
    });
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
    expect((await text(dir, env, ['git', 'status'])).split('\n')[0]).toBe('on main (origin/main: ahead 1, behind 0)');

    const blame = (await json(dir, env, ['git', 'blame', 'f.txt', '--line', '2'])) as { entries: unknown[]; line_filter: number };
    expect(blame.line_filter).toBe(2);
    expect(blame.entries).toEqual([
      expect.objectContaining({ line: 2, summary: 'second', text: 'TWO', author: 'Ada', author_mail: 'ada@example.test' }),
    ]);
    expect(await text(dir, env, ['git', 'blame', 'f.txt', '--line', '2'])).toMatch(/^[0-9a-f]{8} \(Ada\s+2\) TWO$/);
    expect(await json(dir, env, ['git', 'blame', 'f.txt', '--line', '0'])).toMatchObject({ exit: 1, code: 'INVALID_RANGE' });

    writeFileSync(join(dir, 'f.txt'), 'one\nthree\n');
    const diff = (await json(dir, env, ['git', 'diff'])) as { diff: string; line_count: number; path_filter: string | null };
    expect(diff.diff).toContain('+three');
    expect(diff.diff.includes('\u001b[')).toBe(false);
    expect(diff.path_filter).toBeNull();
    expect(await text(dir, env, ['git', 'diff', '--path', 'f.txt'])).toBe(diff.diff);
    expect(await json(dir, env, ['--limit', '2', 'git', 'diff'])).toMatchObject({ line_count: 2, truncated: true });

    const info = (await json(dir, env, ['git', 'commit-info', 'HEAD~1'])) as { reference: string; commit: Record<string, unknown> };
    expect(info.reference).toBe('HEAD~1');
    expect(info.commit).toMatchObject({
      subject: 'base',
      body: 'body text',
      author: { name: 'Ada', email: 'ada@example.test' },
      file_count: 1,
      additions: 2,
      deletions: 0,
      files: [{ path: 'f.txt', old_path: null, status: 'added', additions: 2, deletions: 0 }],
    });
    expect(await json(dir, env, ['git', 'commit-info', '--ref', 'HEAD~1'])).toEqual(info);
    expect(await text(dir, env, ['git', 'commit-info'])).toMatch(/^commit [0-9a-f]{40}\nAuthor: Ada <ada@example.test>\n/);
    expect(await json(dir, env, ['git', 'commit-info', 'no-such-ref'])).toMatchObject({ exit: 1, code: 'INVALID_ARGUMENT', domain: 'git' });

    expect(await json(dir, env, ['git', 'tag', 'create', 'v1'])).toMatchObject({
      command: 'git.tag.create',
      tag: 'v1',
      reference: 'HEAD',
      annotated: false,
      target_commit: { subject: 'second' },
    });
    expect(await json(dir, env, ['git', 'tag', 'create', 'v0', '--ref', 'HEAD~1', '--message', 'old'])).toMatchObject({
      reference: 'HEAD~1',
      annotated: true,
      target_commit: { subject: 'base' },
    });
    expect(await text(dir, env, ['git', 'tag', 'create', 'v2', '--message', 'two'])).toMatch(
      /^created annotated tag v2 at [0-9a-f]{7} second$/,
    );
    expect(await json(dir, env, ['git', 'tag', 'create', 'v1'])).toMatchObject({ exit: 1, code: 'INVALID_ARGUMENT' });
    expect(await json(dir, env, ['git', 'tags'])).toMatchObject({ tag_count: 3, truncated: false });
    expect(await json(dir, env, ['git', 'tags', '--latest'])).toMatchObject({ tag_count: 1, latest: true });
    expect(await json(dir, env, ['--limit', '1', 'git', 'tags'])).toMatchObject({ tag_count: 1, truncated: true });
    expect(git('ls-remote', '--tags', 'origin')).toBe('');

    const remotes = (await json(dir, env, ['git', 'remotes'])) as { remote_count: number; remotes: { name: string }[] };
    expect(remotes.remote_count).toBe(2);
    expect(remotes.remotes.find((r) => r.name === 'gh')).toEqual({
      name: 'gh',
      fetch_url: 'https://github.com/acme/tool.git',
      push_url: 'https://github.com/acme/tool.git',
      provider: 'github',
    });
    expect(await text(dir, env, ['git', 'remotes'])).not.toContain('secret');
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
    expect(await json(dir, env, ['git', 'status'])).toMatchObject({
      exit: 1,
      code: 'COMMAND_FAILED',
      cause: expect.stringMatching(/index/),
    });
    const emptyBin = join(tempDir(), 'bin');
    mkdirSync(emptyBin);
    // The built ah runs under this node binary directly, so an empty PATH only hides git.
    const r = await runAh(['--json', 'git', 'status'], { cwd: dir, env: { ...env, PATH: emptyBin } });
    expect(r.code).toBe(1);
    expect(r.errorJson()).toMatchObject({ code: 'DEPENDENCY_MISSING', domain: 'git' });
  });
});
