/**
 * Reads a read-only statement's rows through a cursor (pg-cursor: a portal read in batches, the
 * later ones sized by the byte budget left), so a limit stops the server from sending more than
 * one row past it, and a result too large for an answer stops at a row or byte cap instead of
 * filling memory.
 *
 * Rows are built where the driver hands over each row's raw text values: one object per row,
 * cloned from a template that already has every column (so all rows share one shape and each
 * takes one allocation), each value mapped once by value-types.ts, and its JSON size estimated
 * from values already at hand. The driver's own row building (an array or object per row, a
 * 'row' event per row) is skipped; for a 10,000-row answer that garbage was a large part of the
 * collector's work.
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
/** Most rows asked of the server in one read. */
const MAX_BATCH = 16_384;

export interface QueryResult {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
  truncated_by: 'limit' | 'max_rows' | 'max_bytes' | null;
}

/** Estimated JSON size of a mapped value; `raw` is its PostgreSQL text (about the JSON of a parsed json value). */
function estimate(value: unknown, raw: string): number {
  switch (typeof value) {
    case 'string':
      return value.length + 3;
    case 'number':
      return 12;
    case 'boolean':
      return 6;
    default:
      return raw.length + 1;
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

interface Field {
  name: string;
  dataTypeID: number;
  format?: string;
}

/** The part of pg-cursor's protocol interface this module overrides (not in its type definitions). */
interface CursorInternals {
  _rows: unknown[] | null;
  handleRowDescription(message: { fields: Field[] }): void;
  handleDataRow(message: { fields: (string | null)[] }): void;
}

/** What a row reader knows once the server has described the columns. */
export interface RowShape {
  names: string[];
  fields: Field[];
}

type Parser = (text: string) => unknown;

export interface RowReader {
  read(count: number): Promise<unknown[]>;
  close(): Promise<void>;
  /** Null until the row description arrived. */
  shape: RowShape | null;
  /** Estimated JSON size of each row of the last batch, in order. */
  sizes: number[];
}

type Cursor = Awaited<ReturnType<typeof loadCursor>>;
let readerClass: (new (sql: string) => RowReader) | undefined;

function rowReaderClass(Base: Cursor): new (sql: string) => RowReader {
  class Reader extends Base {
    shape: RowShape | null = null;
    sizes: number[] = [];
    private parsers: Parser[] = [];
    private keyBytes: number[] = [];
    private template: Record<string, null> = {};

    constructor(sql: string) {
      super(sql, undefined, { types: VALUE_TYPES as never });
    }

    handleRowDescription(message: { fields: Field[] }): void {
      const fields = message.fields;
      const names = uniqueNames(fields.map((f) => f.name));
      this.shape = { names, fields };
      this.parsers = fields.map((f) => VALUE_TYPES.getTypeParser(f.dataTypeID, f.format ?? 'text'));
      this.keyBytes = names.map((name) => name.length + 3);
      // Own data properties from the start (defineProperty): a column named "__proto__" stays a column.
      const template: Record<string, null> = {};
      for (const name of names)
        Object.defineProperty(template, name, { value: null, writable: true, enumerable: true, configurable: true });
      this.template = template;
      (Base.prototype as unknown as CursorInternals).handleRowDescription.call(this, message);
    }

    handleDataRow(message: { fields: (string | null)[] }): void {
      const values = message.fields;
      const names = (this.shape as RowShape).names;
      const row: Record<string, unknown> = { ...this.template };
      let size = 0;
      for (let i = 0; i < values.length; i += 1) {
        const raw = values[i] as string | null;
        if (raw === null) {
          size += 5 + (this.keyBytes[i] as number);
          continue;
        }
        const value = (this.parsers[i] as Parser)(raw);
        row[names[i] as string] = value;
        size += estimate(value, raw) + (this.keyBytes[i] as number);
      }
      this.sizes.push(size);
      ((this as unknown as CursorInternals)._rows as unknown[]).push(row);
    }
  }
  return Reader as unknown as new (
    sql: string,
  ) => RowReader;
}

export async function readRows(
  sql: string,
  input: ConnectionInput,
  ctx: CommandContext,
  options: { operation: string; limit: number | null; maxBytes?: number },
): Promise<QueryResult> {
  readerClass ??= rowReaderClass(await loadCursor());
  const Reader = readerClass;
  return withSession(input, ctx, { readOnly: true, operation: options.operation }, async (session) => {
    const cursor = session.client.query(new Reader(sql) as never) as unknown as RowReader;
    const want = Math.min(options.limit ?? QUERY_MAX_ROWS, QUERY_MAX_ROWS);
    const maxBytes = options.maxBytes ?? QUERY_MAX_BYTES;
    const rows: Record<string, unknown>[] = [];
    let bytes = 0;
    let truncatedBy: QueryResult['truncated_by'] = null;
    let batch = Math.min(want + 1, 256);
    for (;;) {
      const ask = Math.min(batch, want + 1 - rows.length);
      cursor.sizes = [];
      const got = (await cursor.read(ask)) as Record<string, unknown>[];
      const sizes = cursor.sizes;
      for (let i = 0; i < got.length; i += 1) {
        if (rows.length === want) {
          truncatedBy = options.limit !== null && options.limit <= QUERY_MAX_ROWS ? 'limit' : 'max_rows';
          break;
        }
        bytes += sizes[i] as number;
        if (bytes > maxBytes) {
          truncatedBy = 'max_bytes';
          break;
        }
        rows.push(got[i] as Record<string, unknown>);
      }
      if (truncatedBy !== null || got.length < ask) break;
      // Next, as many rows as the byte budget still holds at the average size so far (each
      // round trip leaves the server idle while rows are built), within 256…16384.
      const average = Math.max(1, bytes / rows.length);
      batch = Math.min(MAX_BATCH, Math.max(256, Math.ceil((maxBytes - bytes) / average) + 1));
    }
    // Closed only after reads that succeeded: pg-cursor's close waits for a ReadyForQuery that a
    // broken connection never sends (a failed read leaves the connection to the session to close).
    if (!ctx.signal.aborted) await cursor.close().catch(() => undefined);
    const shape = cursor.shape;
    const columns = shape === null ? [] : shape.names.map((name, i) => ({ name, type: typeName(shape.fields[i]?.dataTypeID ?? 0) }));
    return { columns, rows, row_count: rows.length, truncated: truncatedBy !== null, truncated_by: truncatedBy };
  });
}
