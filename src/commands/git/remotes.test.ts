import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { providerOf, remotes } from './remotes.js';
import { call, gitEnv, makeRepo } from '../../../test/helpers/git.js';

describe('git.remotes', () => {
  it('lists remotes with URLs, provider hints and no embedded credentials', async () => {
    const repo = await makeRepo();
    await repo.git(['remote', 'add', 'origin', 'git@github.com:acme/tool.git']);
    await repo.git(['remote', 'add', 'lab', 'https://oauth2:glpat-secret@gitlab.example.org/acme/tool.git']);
    await repo.git(['remote', 'set-url', '--push', 'lab', 'ssh://git:hunter2@gitlab.example.org/acme/tool.git']);
    await repo.git(['remote', 'add', 'local', '/srv/git/tool.git']);
    const out = await call(remotes, {}, repo.ctx());
    expect(out).toEqual({
      command: 'git.remotes',
      in_git_repo: true,
      remote_count: 3,
      remotes: [
        {
          name: 'lab',
          fetch_url: 'https://gitlab.example.org/acme/tool.git',
          push_url: 'ssh://git@gitlab.example.org/acme/tool.git',
          provider: 'gitlab',
        },
        { name: 'local', fetch_url: '/srv/git/tool.git', push_url: '/srv/git/tool.git', provider: null },
        { name: 'origin', fetch_url: 'git@github.com:acme/tool.git', push_url: 'git@github.com:acme/tool.git', provider: 'github' },
      ],
    });
    expect(JSON.stringify(out)).not.toMatch(/secret|hunter2/);
  });

  it('reports no remotes and non-repositories', async () => {
    const repo = await makeRepo();
    const none = await call(remotes, {}, repo.ctx());
    expect(none).toEqual({ command: 'git.remotes', in_git_repo: true, remote_count: 0, remotes: [] });
    expect(remotes.render?.(none)).toBe('no remotes');
    const outside = await call(remotes, {}, testContext({ cwd: tempDir(), env: gitEnv() }));
    expect(outside).toEqual({ command: 'git.remotes', in_git_repo: false, remote_count: 0, remotes: [] });
  });
});

describe('providerOf', () => {
  it('reads the host name of every URL form', () => {
    expect(providerOf('https://github.com/a/b')).toBe('github');
    expect(providerOf('ssh://git@ssh.github.com:443/a/b.git')).toBe('github');
    expect(providerOf('git@github.com-work:a/b.git')).toBe('github');
    expect(providerOf('https://gitlab.com/a/b')).toBe('gitlab');
    expect(providerOf('git@bitbucket.org:a/b.git')).toBe('bitbucket');
    expect(providerOf('https://git.example.com/github/b')).toBeNull();
    expect(providerOf('https://notgithub.com/a/b')).toBeNull();
    expect(providerOf('/srv/github/repo.git')).toBeNull();
    expect(providerOf(null)).toBeNull();
  });
});
