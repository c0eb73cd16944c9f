import { describe, expect, it } from 'vitest';
import { applyNumstat, parseNameStatus, total } from './commit-stats.js';

describe('commit file statistics', () => {
  it('pairs --name-status and --numstat records, renames included', () => {
    const files = parseNameStatus(['M', 'a b.txt', 'R087', 'old -> x', 'new\nname', 'A', 'img.png', 'D', 'gone', 'T', 'link']);
    applyNumstat(files, ['3\t1\ta b.txt', '2\t2\t', 'old -> x', 'new\nname', '-\t-\timg.png', '0\t4\tgone', '1\t1\tlink']);
    expect(files).toEqual([
      { path: 'a b.txt', old_path: null, status: 'modified', additions: 3, deletions: 1 },
      { path: 'new\nname', old_path: 'old -> x', status: 'renamed', additions: 2, deletions: 2 },
      { path: 'img.png', old_path: null, status: 'added', additions: null, deletions: null },
      { path: 'gone', old_path: null, status: 'deleted', additions: 0, deletions: 4 },
      { path: 'link', old_path: null, status: 'type_changed', additions: 1, deletions: 1 },
    ]);
    expect(total(files, 'additions')).toBe(6);
    expect(total(files, 'deletions')).toBe(8);
  });

  it('gives null totals only when every file is binary', () => {
    const files = parseNameStatus(['A', 'a.bin']);
    applyNumstat(files, ['-\t-\ta.bin']);
    expect(total(files, 'additions')).toBeNull();
    expect(total([], 'additions')).toBe(0);
  });

  it('maps unknown status letters to null', () => {
    expect(parseNameStatus(['X', 'weird'])[0]?.status).toBeNull();
  });
});
