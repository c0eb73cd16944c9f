/**
 * The libpq password file: lines `host:port:database:user:password`, `*` matching anything,
 * `\:` and `\\` escapes, `#` comments; the first matching line wins. Like libpq, a file readable
 * by group or others is ignored (on POSIX systems), and a Unix-socket host matches `localhost`.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface PgpassTarget {
  host: string;
  port: number;
  database: string;
  user: string;
}

/** Splits a pgpass line into its fields, honouring the escapes (null when it has too few). */
export function splitPgpassLine(line: string): string[] | null {
  const fields: string[] = [];
  let current = '';
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i] as string;
    if (ch === '\\' && i + 1 < line.length) {
      current += line[i + 1];
      i += 1;
    } else if (ch === ':' && fields.length < 4) {
      fields.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  fields.push(current);
  return fields.length === 5 ? fields : null;
}

export function matchPgpass(text: string, target: PgpassTarget): string | null {
  const host = target.host.startsWith('/') ? 'localhost' : target.host;
  const wanted = [host, String(target.port), target.database, target.user];
  for (const raw of text.split(/\r?\n/)) {
    if (raw.trim() === '' || raw.startsWith('#')) continue;
    const fields = splitPgpassLine(raw);
    if (!fields) continue;
    if (wanted.every((value, i) => fields[i] === '*' || fields[i] === value)) return fields[4] as string;
  }
  return null;
}

/** The password ~/.pgpass (or PGPASSFILE) holds for this target, or null. */
export async function pgpassPassword(
  target: PgpassTarget,
  env: Readonly<Record<string, string | undefined>>,
  home: string | null,
): Promise<string | null> {
  const path = env.PGPASSFILE || (home ? join(home, '.pgpass') : null);
  if (!path) return null;
  try {
    const info = await stat(path);
    if (!info.isFile()) return null;
    if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) return null;
    return matchPgpass(await readFile(path, 'utf8'), target);
  } catch {
    return null;
  }
}
