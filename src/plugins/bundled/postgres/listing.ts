/**
 * The shape shared by the listing commands (databases, schemas, tables, …): `rows`, `count` and
 * `truncated`, with the call's limit (or a fixed cap) applied in SQL, one row past it fetched to
 * know whether more exist. Light on purpose: the session module is imported when a listing runs.
 */
import type { CommandContext } from '../../../catalog/descriptor.js';
import { RootObject, type TObject, Type } from '../../../catalog/schema.js';
import type { ConnectionInput } from './connection-config.js';

/** Rows a listing returns when the call sets no limit. */
export const LIST_CAP = 10_000;

export function listOutput<C extends string, R extends TObject>(command: C, row: R) {
  return RootObject({
    command: Type.Literal(command),
    rows: Type.Array(row),
    count: Type.Integer({ minimum: 0, description: 'Number of rows returned' }),
    truncated: Type.Boolean({ description: 'More rows exist past the limit' }),
  });
}

export interface ListResult<C extends string, R> {
  command: C;
  rows: R[];
  count: number;
  truncated: boolean;
}

/** Runs a listing query (text must not end in LIMIT; the cap is appended as a literal integer). */
export async function runListing<C extends string, R>(
  command: C,
  input: ConnectionInput,
  ctx: CommandContext,
  query: { text: string; values: unknown[] },
): Promise<ListResult<C, R>> {
  const { withSession } = await import('./session.js');
  const cap = Math.min(ctx.limit ?? LIST_CAP, LIST_CAP);
  return withSession(input, ctx, { readOnly: true, operation: command }, async (session) => {
    const rows = await session.rows<R>(`${query.text}\nlimit ${cap + 1}`, query.values);
    const truncated = rows.length > cap;
    if (truncated) rows.length = cap;
    return { command, rows, count: rows.length, truncated };
  });
}

/** Rows a text table shows; the rest is counted (JSON output has them all). */
export const TEXT_ROWS = 500;

const BREAKS = /[\n\r\t]/;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (BREAKS.test(text)) text = text.replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** A plain text table for the CLI (columns from the first row's keys, at most TEXT_ROWS rows). */
export function renderTable(rows: readonly Record<string, unknown>[], truncated = false): string {
  if (rows.length === 0) return '(no rows)';
  const columns = Object.keys(rows[0] as object);
  const shown = rows.length > TEXT_ROWS ? rows.slice(0, TEXT_ROWS) : rows;
  const widths = columns.map((c) => c.length);
  const cells = shown.map((row) =>
    columns.map((c, i) => {
      const text = cell(row[c]);
      if (text.length > (widths[i] as number)) widths[i] = text.length;
      return text;
    }),
  );
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  const out = [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)];
  const hidden = rows.length - shown.length;
  if (hidden > 0) out.push(`… ${hidden} more rows not shown (--json has them all)`);
  out.push(`(${rows.length} row${rows.length === 1 ? '' : 's'}${truncated ? ', truncated' : ''})`);
  return out.join('\n');
}

export function renderList(o: { rows: readonly Record<string, unknown>[]; truncated: boolean }): string {
  return renderTable(o.rows, o.truncated);
}
