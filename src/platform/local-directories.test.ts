import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/tmp.js';
import { localDirectories, mayLookUpSynchronously, parseMountInfo, underLocalMounts } from './local-directories.js';

/** One mountinfo line (the format of proc(5)); `extra` stands for the optional fields. */
const line = (id: number, point: string, type: string, extra = '') =>
  `${id} 1 0:${id} / ${point} rw,relatime ${extra}${extra ? ' ' : ''}- ${type} none rw`;

describe('parseMountInfo', () => {
  it('reads the mount point and type, with optional fields and escaped names', () => {
    const text = [
      line(20, '/', 'ext4', 'shared:1'),
      line(21, '/mnt/my\\040disk', 'nfs4', 'shared:2 master:1'),
      line(22, '/proc', 'proc'),
      '',
    ].join('\n');
    expect(parseMountInfo(text)).toEqual([
      { point: '/', type: 'ext4' },
      { point: '/mnt/my disk', type: 'nfs4' },
      { point: '/proc', type: 'proc' },
    ]);
  });

  it('skips lines without the separator', () => {
    expect(parseMountInfo('garbage\n1 2 3\n')).toEqual([]);
  });
});

describe('underLocalMounts', () => {
  const mounts = parseMountInfo([line(1, '/', 'ext4'), line(2, '/mnt/nfs', 'nfs4'), line(3, '/home', 'btrfs')].join('\n'));

  it('needs every mount above the path to be local', () => {
    expect(underLocalMounts('/home/u/project', mounts)).toBe(true);
    expect(underLocalMounts('/mnt/nfs', mounts)).toBe(false);
    expect(underLocalMounts('/mnt/nfs/project/src', mounts)).toBe(false);
  });

  it('compares whole path components', () => {
    expect(underLocalMounts('/mnt/nfs-backup/x', mounts)).toBe(true);
  });

  it('trusts no path that no listed mount covers', () => {
    expect(underLocalMounts('/x', parseMountInfo(line(2, '/mnt', 'ext4')))).toBe(false);
  });

  it('refuses FUSE, network and pseudo file systems', () => {
    for (const type of ['fuse.sshfs', 'cifs', 'nfs', '9p', 'ceph', 'proc', 'devtmpfs']) {
      expect(underLocalMounts('/data/x', parseMountInfo([line(1, '/', 'ext4'), line(2, '/data', type)].join('\n')))).toBe(false);
    }
  });
});

describe('localDirectories', () => {
  /** A tracker over a fake mount table and clock; `reads` counts mount-table reads. */
  function tracker(table: string | null) {
    let clock = 1_000_000;
    const state = { reads: 0, table };
    const local = localDirectories(
      async () => {
        state.reads += 1;
        return state.table;
      },
      () => clock,
    );
    return { local, state, advance: (ms: number) => (clock += ms) };
  }

  it('trusts a directory on local mounts once learned, for five seconds', async () => {
    const dir = tempDir();
    const { local, advance } = tracker(line(1, '/', 'ext4'));
    expect(local.trusted(dir)).toBe(false);
    await local.learn(dir);
    expect(local.trusted(dir)).toBe(true);
    expect(local.trusted(join(dir, 'sub'))).toBe(false);
    advance(4999);
    expect(local.trusted(dir)).toBe(true);
    advance(1);
    expect(local.trusted(dir)).toBe(false);
  });

  it('does not trust a directory under a network mount', async () => {
    const dir = tempDir();
    const { local } = tracker([line(1, '/', 'ext4'), line(2, dir, 'nfs4')].join('\n'));
    await local.learn(dir);
    expect(local.trusted(dir)).toBe(false);
  });

  it('keeps a refusal for five seconds instead of checking again on every open', async () => {
    const dir = tempDir();
    const { local, state, advance } = tracker([line(1, '/', 'ext4'), line(2, dir, 'nfs4')].join('\n'));
    await local.learn(dir);
    // The network mount is gone, but the refusal stands until it expires.
    state.table = line(1, '/', 'ext4');
    advance(4999);
    await local.learn(dir);
    expect(local.trusted(dir)).toBe(false);
    advance(1);
    await local.learn(dir);
    expect(local.trusted(dir)).toBe(true);
  });

  it('checks where a symbolic link leads, not only where it is', async () => {
    const base = tempDir();
    const remote = join(base, 'remote');
    mkdirSync(join(remote, 'project'), { recursive: true });
    symlinkSync(join(remote, 'project'), join(base, 'link'));
    const { local } = tracker([line(1, '/', 'ext4'), line(2, remote, 'fuse.sshfs')].join('\n'));
    await local.learn(join(base, 'link'));
    expect(local.trusted(join(base, 'link'))).toBe(false);
    await local.learn(base);
    expect(local.trusted(base)).toBe(true);
  });

  it('does not trust a directory that cannot be resolved', async () => {
    const dir = tempDir();
    const { local } = tracker(line(1, '/', 'ext4'));
    await local.learn(join(dir, 'missing'));
    expect(local.trusted(join(dir, 'missing'))).toBe(false);
  });

  it('reads the mount table again once it is five seconds old', async () => {
    const dir = tempDir();
    const { local, state, advance } = tracker(line(1, '/', 'ext4'));
    await local.learn(dir);
    await local.learn(dir);
    expect(state.reads).toBe(1);
    // A network file system mounted over the directory since: the next evidence sees it.
    state.table = [line(1, '/', 'ext4'), line(2, dir, 'nfs4')].join('\n');
    advance(5000);
    expect(local.trusted(dir)).toBe(false);
    await local.learn(dir);
    expect(state.reads).toBe(2);
    expect(local.trusted(dir)).toBe(false);
  });

  it('trusts nothing, and stops asking, where there is no mount table', async () => {
    const dir = tempDir();
    const { local, state } = tracker(null);
    await local.learn(dir);
    await local.learn(dir);
    expect(local.trusted(dir)).toBe(false);
    expect(state.reads).toBe(1);
  });
});

describe('mayLookUpSynchronously', () => {
  /** A stand-in that trusts one directory and records what it was asked to learn. */
  function trusting(dir: string) {
    const learned: string[] = [];
    return {
      learned,
      local: {
        trusted: (d: string) => d === dir,
        learn: async (d: string) => {
          learned.push(d);
        },
      },
    };
  }

  it('allows an entry directly inside a trusted directory', () => {
    const { local, learned } = trusting('/data/repo');
    expect(mayLookUpSynchronously('/data/repo/a.txt', local)).toBe(true);
    expect(learned).toEqual([]);
  });

  it('refuses paths that could follow a symbolic link out of the trusted directory', () => {
    const { local } = trusting('/data/repo/link/..');
    // `link/..` is wherever the link leads, then its parent: not the directory that was checked.
    expect(mayLookUpSynchronously('/data/repo/link/../a.txt', local)).toBe(false);
    const trailing = trusting('/data/repo');
    expect(mayLookUpSynchronously('/data/repo/link/', trailing.local)).toBe(false);
    expect(mayLookUpSynchronously('/data/repo/./a.txt', trusting('/data/repo/.').local)).toBe(false);
  });

  it('starts learning an untrusted directory and answers asynchronously for now', () => {
    const { local, learned } = trusting('/elsewhere');
    expect(mayLookUpSynchronously('/data/repo/a.txt', local)).toBe(false);
    expect(learned).toEqual(['/data/repo']);
  });
});
