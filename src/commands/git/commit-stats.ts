/** Parsers for the per-file parts of `git show`: `--name-status -z` and `--numstat -z`. */
import { STATUS_BY_CODE } from './porcelain.js';

interface FileStat {
  path: string;
  old_path: string | null;
  status: string | null;
  additions: number | null;
  deletions: number | null;
}

/** Records are `status NUL path NUL`, or `R<score> NUL old NUL new NUL` for renames and copies. */
export function parseNameStatus(fields: readonly string[]): FileStat[] {
  const files: FileStat[] = [];
  for (let i = 0; i < fields.length; ) {
    const code = fields[i] ?? '';
    if (code === '') {
      i += 1;
      continue;
    }
    const status = STATUS_BY_CODE[code[0] as string] ?? null;
    if (code[0] === 'R' || code[0] === 'C') {
      files.push({ path: fields[i + 2] ?? '', old_path: fields[i + 1] ?? null, status, additions: null, deletions: null });
      i += 3;
    } else {
      files.push({ path: fields[i + 1] ?? '', old_path: null, status, additions: null, deletions: null });
      i += 2;
    }
  }
  return files;
}

/**
 * Records are `added TAB deleted TAB path NUL`, or for renames and copies `added TAB deleted TAB NUL
 * old NUL new NUL`. Binary files report `-` for both counts, which stays null.
 */
export function applyNumstat(files: readonly FileStat[], fields: readonly string[]): void {
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (let i = 0; i < fields.length; ) {
    const record = fields[i] ?? '';
    i += 1;
    const first = record.indexOf('\t');
    const second = record.indexOf('\t', first + 1);
    if (first === -1 || second === -1) continue;
    let path = record.slice(second + 1);
    if (path === '') {
      path = fields[i + 1] ?? '';
      i += 2;
    }
    const file = byPath.get(path);
    if (!file) continue;
    const added = record.slice(0, first);
    const deleted = record.slice(first + 1, second);
    file.additions = /^\d+$/.test(added) ? Number(added) : null;
    file.deletions = /^\d+$/.test(deleted) ? Number(deleted) : null;
  }
}

/** Sum over the files that have line counts; null when files exist but none has counts (all binary). */
export function total(files: readonly FileStat[], key: 'additions' | 'deletions'): number | null {
  const counted = files.filter((f) => f[key] !== null);
  if (counted.length === 0 && files.length > 0) return null;
  return counted.reduce((n, f) => n + (f[key] ?? 0), 0);
}
