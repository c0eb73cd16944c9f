/**
 * Reads a read-only statement's rows through a cursor (pg-cursor: a named portal read in growing
 * batches), so a limit stops the server from sending more than one row past it, and a result too
 * large for an answer stops at a row or byte cap instead of filling memory.
 */
import type { CommandContext } from '../../../catalog/descriptor.js';
import type { ConnectionInput } from './connection-config.js';
import { loadCursor, withSession } from './session.js';
import { typeName, VALUE_TYPES } from './value-types.js';

/** Rows returned when the call sets no limit. */
export const QUERY_MAX_ROWS = 100_000;
/**
 * Estimated JSON size of the returned rows: 3 MiB. An MCP result carries the JSON twice (structured
 * content and its text block), and the SDK's stdio client refuses a message over 10 MB.
 */
export const QUERY_MAX_BYTES = 3 * 1024 * 1024;

export interface QueryResult {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
  truncated_by: 'limit' | 'max_rows' | 'max_bytes' | null;
}

function estimate(value: unknown): number {
  if (value === null) return 5;
  switch (typeof value) {
    case 'string':
      return value.length + 3;
    case 'number':
      return 12;
    case 'boolean':
      return 6;
    default:
      return JSON.stringify(value).length + 1;
  }
}

/** Column names made unique (`a`, `a_2`, …) so no value of a duplicate name is lost. */
export function uniqueNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  const taken = new Set(names);
  return names.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    if (n === 1) return name;
    let candidate = `${name}_${n}`;
    while (taken.has(candidate)) candidate = `${candidate}_`;
    taken.add(candidate);
    return candidate;
  });
}

export async function readRows(
  sql: string,
  input: ConnectionInput,
  ctx: CommandContext,
  options: { operation: string; limit: number | null; maxBytes?: number },
): Promise<QueryResult> {
  const Cursor = await loadCursor();
  return withSession(input, ctx, { readOnly: true, operation: options.operation }, async (session) => {
    const cursor = session.client.query(new Cursor(sql, undefined, { rowMode: 'array', types: VALUE_TYPES as never }));
    const want = Math.min(options.limit ?? QUERY_MAX_ROWS, QUERY_MAX_ROWS);
    const maxBytes = options.maxBytes ?? QUERY_MAX_BYTES;
    const rows: Record<string, unknown>[] = [];
    let names: string[] | null = null;
    let bytes = 0;
    let truncatedBy: QueryResult['truncated_by'] = null;
    let batch = Math.min(want + 1, 256);
    try {
      for (;;) {
        const ask = Math.min(batch, want + 1 - rows.length);
        const got = (await cursor.read(ask)) as unknown as unknown[][];
        names ??= uniqueNames(((cursor as unknown as { _result: { fields: { name: string }[] } })._result.fields ?? []).map((f) => f.name));
        for (const values of got) {
          if (rows.length === want) {
            truncatedBy = options.limit !== null && options.limit <= QUERY_MAX_ROWS ? 'limit' : 'max_rows';
            break;
          }
          const row: Record<string, unknown> = {};
          for (let i = 0; i < names.length; i += 1) {
            const value = values[i] ?? null;
            row[names[i] as string] = value;
            bytes += estimate(value) + (names[i] as string).length + 3;
          }
          if (bytes > maxBytes) {
            truncatedBy = 'max_bytes';
            break;
          }
          rows.push(row);
        }
        if (truncatedBy !== null || got.length < ask) break;
        batch = Math.min(batch * 4, 8192);
      }
    } finally {
      if (!ctx.signal.aborted) await cursor.close().catch(() => undefined);
    }
    const fields = (cursor as unknown as { _result: { fields: { name: string; dataTypeID: number }[] } })._result.fields ?? [];
    const columns = (names ?? []).map((name, i) => ({ name, type: typeName(fields[i]?.dataTypeID ?? 0) }));
    return { columns, rows, row_count: rows.length, truncated: truncatedBy !== null, truncated_by: truncatedBy };
  });
}
