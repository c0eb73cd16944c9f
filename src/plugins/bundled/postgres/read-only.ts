/**
 * The first line of defence for `query`: the statement must start with SELECT, WITH, TABLE or
 * VALUES (after comments and opening parentheses). It is not the guarantee: the session runs
 * every transaction READ ONLY, so a WITH … INSERT, SELECT … FOR UPDATE, nextval() or a function
 * that writes is refused by the server (SQLSTATE 25006), whatever the keyword.
 */
import { AhError } from '../../../errors.js';

const ALLOWED = new Set(['select', 'with', 'table', 'values']);

/** The first keyword of a statement, lowercased, skipping whitespace, comments and `(`. */
export function firstKeyword(sql: string): string {
  let i = 0;
  let depth = 0;
  while (i < sql.length) {
    const ch = sql[i] as string;
    if (/\s/.test(ch) || ch === '(') {
      i += 1;
    } else if (sql.startsWith('--', i)) {
      const nl = sql.indexOf('\n', i);
      i = nl === -1 ? sql.length : nl + 1;
    } else if (sql.startsWith('/*', i)) {
      // Block comments nest in PostgreSQL.
      depth = 1;
      i += 2;
      while (i < sql.length && depth > 0) {
        if (sql.startsWith('/*', i)) {
          depth += 1;
          i += 2;
        } else if (sql.startsWith('*/', i)) {
          depth -= 1;
          i += 2;
        } else i += 1;
      }
    } else break;
  }
  const m = /^[A-Za-z_]+/.exec(sql.slice(i));
  return m ? m[0].toLowerCase() : '';
}

export function assertReadOnlyStatement(sql: string): void {
  const keyword = firstKeyword(sql);
  if (ALLOWED.has(keyword)) return;
  throw new AhError({
    code: 'POSTGRES_QUERY_NOT_READ_ONLY',
    message: `query runs only SELECT, WITH, TABLE or VALUES statements${keyword ? `, not ${keyword.toUpperCase()}` : ''}`,
    cause: `the statement starts with '${keyword || '(nothing)'}'`,
    hint: 'Use postgres exec (with yes) for statements that change data or settings.',
    domain: 'postgres',
    operation: 'postgres.query',
  });
}
