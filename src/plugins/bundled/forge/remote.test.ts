import { describe, expect, it } from 'vitest';
import { parseRemoteUrl } from './remote.js';

describe('parseRemoteUrl', () => {
  it.each([
    ['https://github.com/octocat/Hello-World.git', 'github.com', 'octocat/Hello-World', 'https://github.com/octocat/Hello-World.git'],
    ['https://user:secret@github.com/octocat/Hello-World', 'github.com', 'octocat/Hello-World', 'https://github.com/octocat/Hello-World'],
    [
      'ssh://git@gitlab.example.com:2222/group/sub/name.git',
      'gitlab.example.com',
      'group/sub/name',
      'ssh://gitlab.example.com:2222/group/sub/name.git',
    ],
    ['git@github.com:octocat/Hello-World.git', 'github.com', 'octocat/Hello-World', 'github.com:octocat/Hello-World.git'],
    ['gitlab.example.com:group/sub/name', 'gitlab.example.com', 'group/sub/name', 'gitlab.example.com:group/sub/name'],
    ['https://GitLab.Example.com/group/name/', 'gitlab.example.com', 'group/name', 'https://gitlab.example.com/group/name/'],
  ])('%s', (raw, host, path, url) => {
    expect(parseRemoteUrl(raw)).toEqual({ host, path, url });
  });

  it.each(['/srv/repos/project.git', './relative', 'file:///srv/x/y.git', 'https://github.com/only-owner', 'C:\\repos\\x'])(
    'refuses %s',
    (raw) => {
      expect(parseRemoteUrl(raw)).toBeNull();
    },
  );
});
