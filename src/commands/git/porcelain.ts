/** Parser for `git status --porcelain=v2 --branch -z` (NUL-separated records, read as bytes). */
import { nulFields } from './run-git.js';

export interface StatusEntry {
  path: string;
  old_path: string | null;
  status: string;
  staged: boolean;
  unstaged: boolean;
}

export interface PorcelainStatus {
  oid: string | null;
  branch: string | null;
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
  entries: StatusEntry[];
}

const NAMES: Record<string, string> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type_changed',
  U: 'unmerged',
};

/** Status word from an XY pair: the staged change wins, then the working-tree change. */
export function statusName(xy: string): string {
  const x = xy[0] ?? '.';
  const y = xy[1] ?? '.';
  if (x === 'U' || y === 'U' || (x === 'A' && y === 'A') || (x === 'D' && y === 'D')) return 'unmerged';
  return NAMES[x !== '.' ? x : y] ?? 'modified';
}

/** The text after the first `n` space-separated fields (paths may contain spaces). */
function afterFields(record: string, n: number): { fields: string[]; rest: string } {
  const fields: string[] = [];
  let start = 0;
  for (let i = 0; i < n; i += 1) {
    const space = record.indexOf(' ', start);
    if (space === -1) return { fields, rest: '' };
    fields.push(record.slice(start, space));
    start = space + 1;
  }
  return { fields, rest: record.slice(start) };
}

export function parsePorcelainV2(bytes: Buffer): PorcelainStatus {
  const records = nulFields(bytes);
  const status: PorcelainStatus = { oid: null, branch: null, upstream: null, ahead: null, behind: null, entries: [] };
  for (let i = 0; i < records.length; i += 1) {
    const record = records[i] as string;
    if (record.startsWith('# ')) {
      const [, key, ...value] = record.split(' ');
      const text = value.join(' ');
      if (key === 'branch.oid') status.oid = text === '(initial)' ? null : text;
      else if (key === 'branch.head') status.branch = text === '(detached)' ? null : text;
      else if (key === 'branch.upstream') status.upstream = text;
      else if (key === 'branch.ab') {
        const match = /^\+(\d+) -(\d+)$/.exec(text);
        if (match) {
          status.ahead = Number(match[1]);
          status.behind = Number(match[2]);
        }
      }
      continue;
    }
    const type = record[0];
    if (type === '1') {
      const { fields, rest } = afterFields(record, 8);
      const xy = fields[1] ?? '..';
      status.entries.push({ path: rest, old_path: null, status: statusName(xy), staged: xy[0] !== '.', unstaged: xy[1] !== '.' });
    } else if (type === '2') {
      const { fields, rest } = afterFields(record, 9);
      const xy = fields[1] ?? '..';
      const original = records[i + 1] ?? null;
      i += 1;
      status.entries.push({ path: rest, old_path: original, status: statusName(xy), staged: xy[0] !== '.', unstaged: xy[1] !== '.' });
    } else if (type === 'u') {
      const { rest } = afterFields(record, 10);
      status.entries.push({ path: rest, old_path: null, status: 'unmerged', staged: true, unstaged: true });
    } else if (type === '?') {
      status.entries.push({ path: record.slice(2), old_path: null, status: 'untracked', staged: false, unstaged: false });
    }
  }
  return status;
}
