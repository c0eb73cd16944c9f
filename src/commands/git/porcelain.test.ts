import { describe, expect, it } from 'vitest';
import { parsePorcelainV2, statusName } from './porcelain.js';
import { nulFields } from './run-git.js';

const H = '100644 100644 100644 0123456789abcdef0123456789abcdef01234567 0123456789abcdef0123456789abcdef01234567';

function records(...parts: string[]): Buffer {
  return Buffer.from(parts.map((p) => `${p}\0`).join(''), 'utf8');
}

describe('parsePorcelainV2', () => {
  it('reads the branch headers', () => {
    const s = parsePorcelainV2(
      records('# branch.oid abc123', '# branch.head feature/x y', '# branch.upstream origin/feature/x y', '# branch.ab +2 -5'),
    );
    expect(s).toEqual({ oid: 'abc123', branch: 'feature/x y', upstream: 'origin/feature/x y', ahead: 2, behind: 5, entries: [] });
  });

  it('maps an empty repository and a detached HEAD to nulls', () => {
    expect(parsePorcelainV2(records('# branch.oid (initial)', '# branch.head main'))).toMatchObject({ oid: null, branch: 'main' });
    expect(parsePorcelainV2(records('# branch.oid abc', '# branch.head (detached)')).branch).toBeNull();
  });

  it('leaves ahead/behind null when the upstream is gone', () => {
    const s = parsePorcelainV2(records('# branch.oid abc', '# branch.head main', '# branch.upstream origin/main'));
    expect(s).toMatchObject({ upstream: 'origin/main', ahead: null, behind: null });
  });

  it('keeps paths with spaces, newlines, arrows and unicode intact', () => {
    const s = parsePorcelainV2(
      records(`1 .M N... ${H} a b.txt`, `1 M. N... ${H} line\nbreak`, `1 MM N... ${H} x -> y`, '? ünï cødé/ß.txt'),
    );
    expect(s.entries).toEqual([
      { path: 'a b.txt', old_path: null, status: 'modified', staged: false, unstaged: true },
      { path: 'line\nbreak', old_path: null, status: 'modified', staged: true, unstaged: false },
      { path: 'x -> y', old_path: null, status: 'modified', staged: true, unstaged: true },
      { path: 'ünï cødé/ß.txt', old_path: null, status: 'untracked', staged: false, unstaged: false },
    ]);
  });

  it('takes the original path of a rename or copy from the next field', () => {
    const s = parsePorcelainV2(
      records(`2 R. N... ${H} R100 new name.txt`, 'old -> name.txt', `2 C. N... ${H} C75 copy`, 'orig', '? after'),
    );
    expect(s.entries).toEqual([
      { path: 'new name.txt', old_path: 'old -> name.txt', status: 'renamed', staged: true, unstaged: false },
      { path: 'copy', old_path: 'orig', status: 'copied', staged: true, unstaged: false },
      { path: 'after', old_path: null, status: 'untracked', staged: false, unstaged: false },
    ]);
  });

  it('reads conflicts as unmerged and unstaged', () => {
    const s = parsePorcelainV2(
      records(`u UU N... 100644 100644 100644 100644 ${'a'.repeat(40)} ${'b'.repeat(40)} ${'c'.repeat(40)} both changed.txt`),
    );
    expect(s.entries).toEqual([{ path: 'both changed.txt', old_path: null, status: 'unmerged', staged: false, unstaged: true }]);
  });

  it('names every XY pair', () => {
    expect(statusName('A.')).toBe('added');
    expect(statusName('.D')).toBe('deleted');
    expect(statusName('D.')).toBe('deleted');
    expect(statusName('.T')).toBe('type_changed');
    expect(statusName('AM')).toBe('added');
    expect(statusName('AA')).toBe('unmerged');
    expect(statusName('DD')).toBe('unmerged');
    expect(statusName('.U')).toBe('unmerged');
  });
});

describe('nulFields', () => {
  it('splits on NUL before decoding', () => {
    expect(nulFields(Buffer.from('a\nb\0ü\0\0tail', 'utf8'))).toEqual(['a\nb', 'ü', '', 'tail']);
    expect(nulFields(Buffer.alloc(0))).toEqual([]);
  });
});
