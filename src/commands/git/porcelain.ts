/**
 * Parser for `git status --porcelain=v2 --branch -z`. The output is split on NUL as bytes before
 * any decoding, so file names with spaces, newlines, " -> " or any UTF-8 survive intact; a rename
 * or copy record (type 2) carries its original path in the following NUL field.
 */
import { nulFields } from './run-git.js';

interface StatusEntry {
  path: string;
  old_path: string | null;
  status: string;
  /** The index differs from HEAD for this path. */
  staged: boolean;
  /** The work tree differs from the index (conflicts count here: they need work-tree action). */
  unstaged: boolean;
}

export interface PorcelainStatus {
  /** HEAD commit, null in an empty repository. */
  oid: string | null;
  /** Null on a detached HEAD. */
  branch: string | null;
  upstream: string | null;
  /** Null when there is no upstream or it is gone. */
  ahead: number | null;
  behind: number | null;
  entries: StatusEntry[];
}

/** Status words by git's one-letter codes (porcelain XY, --name-status). */
export const STATUS_BY_CODE: Readonly<Record<string, string>> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type_changed',
  U: 'unmerged',
};

/** Status word from an XY pair: the staged change wins, then the work-tree change. */
export function statusName(xy: string): string {
  const x = xy[0] ?? '.';
  const y = xy[1] ?? '.';
  if (x === 'U' || y === 'U' || (x === 'A' && y === 'A') || (x === 'D' && y === 'D')) return 'unmerged';
  return STATUS_BY_CODE[x !== '.' ? x : y] ?? 'modified';
}

/** Splits off the first `n` space-separated fields; the rest is the path (which may hold spaces). */
function splitFields(record: string, n: number): { fields: string[]; rest: string } {
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

function header(status: PorcelainStatus, record: string): void {
  const space = record.indexOf(' ', 2);
  const key = space === -1 ? record.slice(2) : record.slice(2, space);
  const value = space === -1 ? '' : record.slice(space + 1);
  if (key === 'branch.oid') status.oid = value === '(initial)' ? null : value;
  else if (key === 'branch.head') status.branch = value === '(detached)' ? null : value;
  else if (key === 'branch.upstream') status.upstream = value;
  else if (key === 'branch.ab') {
    const match = /^\+(\d+) -(\d+)$/.exec(value);
    if (match) {
      status.ahead = Number(match[1]);
      status.behind = Number(match[2]);
    }
  }
}

function tracked(xy: string, path: string, oldPath: string | null): StatusEntry {
  const status = statusName(xy);
  const conflict = status === 'unmerged';
  return { path, old_path: oldPath, status, staged: !conflict && xy[0] !== '.', unstaged: conflict || xy[1] !== '.' };
}

export function parsePorcelainV2(bytes: Buffer): PorcelainStatus {
  const records = nulFields(bytes);
  const status: PorcelainStatus = { oid: null, branch: null, upstream: null, ahead: null, behind: null, entries: [] };
  for (let i = 0; i < records.length; i += 1) {
    const record = records[i] as string;
    switch (record[0]) {
      case '#':
        header(status, record);
        break;
      case '1': {
        // 1 XY sub mH mI mW hH hI path
        const { fields, rest } = splitFields(record, 8);
        status.entries.push(tracked(fields[1] ?? '..', rest, null));
        break;
      }
      case '2': {
        // 2 XY sub mH mI mW hH hI Xscore path NUL origPath
        const { fields, rest } = splitFields(record, 9);
        i += 1;
        status.entries.push(tracked(fields[1] ?? '..', rest, records[i] ?? null));
        break;
      }
      case 'u': {
        // u XY sub m1 m2 m3 mW h1 h2 h3 path
        const { rest } = splitFields(record, 10);
        status.entries.push({ path: rest, old_path: null, status: 'unmerged', staged: false, unstaged: true });
        break;
      }
      case '?':
        status.entries.push({ path: record.slice(2), old_path: null, status: 'untracked', staged: false, unstaged: false });
        break;
      default:
        // '!' (ignored) is never requested; anything else is from a newer git and skipped.
        break;
    }
  }
  return status;
}
