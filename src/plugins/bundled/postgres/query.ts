import { defineCommand } from '../../../catalog/descriptor.js';
import type { Effects } from '../../../catalog/effects.js';
import { Closed, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, SQL_INPUTS, statelessUnlessRelativeFile } from './inputs.js';
import { renderTable } from './listing.js';

const input = RootObject({ ...CONNECTION_INPUTS, ...SQL_INPUTS });
const output = RootObject({
  command: Type.Literal('postgres.query'),
  columns: Type.Array(Closed({ name: Type.String(), type: Type.String({ description: 'PostgreSQL type name (or "oid N")' }) })),
  rows: Type.Array(Type.Unsafe<Record<string, unknown>>({ type: 'object', description: 'One object per row, keyed by column name' })),
  row_count: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
  truncated_by: Type.Unsafe<'limit' | 'max_rows' | 'max_bytes' | null>({
    type: ['string', 'null'],
    enum: ['limit', 'max_rows', 'max_bytes', null],
    description: 'What stopped the read: the call limit, the 100000-row cap or the 3 MiB cap (null when all rows came)',
  }),
});
type Output = Static<typeof output>;

const QUERY_EFFECTS: Effects = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: true,
  effects: ['network_read', 'external_read', 'filesystem_read'],
  risk: 'medium',
  impact:
    'Runs one SELECT/WITH/TABLE/VALUES statement in a READ ONLY transaction the server enforces; it reads data (possibly sensitive or expensive to compute) and writes nothing.',
  reversibility: 'yes',
};

export const query = defineCommand({
  id: 'postgres.query',
  title: 'Run a read-only query',
  description:
    'Run one read-only statement and return its rows as JSON objects. bigint and numeric come back as strings, timestamps as ISO 8601, bytea as base64, json/jsonb as JSON, arrays as arrays, NULL as null; other types as PostgreSQL text. The limit (--limit / context.limit) stops reading through a cursor and sets truncated. Statements that write (even inside WITH, SELECT … FOR UPDATE, nextval(), writing functions) fail with POSTGRES_QUERY_NOT_READ_ONLY.',
  inputSchema: input,
  outputSchema: output,
  effects: QUERY_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  stateless: statelessUnlessRelativeFile,
  examples: [
    { description: 'Ten newest orders', arguments: { sql: 'select * from orders order by created_at desc limit 10' } },
    {
      description: 'A query from a file against the billing database',
      arguments: { file: 'reports/daily.sql', database: 'billing' },
    },
  ],
  render: (o: Output) => renderTable(o.rows, o.truncated),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const [{ sqlText }, { assertReadOnlyStatement }, { readRows }] = await Promise.all([
      import('./sql-source.js'),
      import('./read-only.js'),
      import('./query-run.js'),
    ]);
    const sql = await sqlText(args, ctx.cwd);
    assertReadOnlyStatement(sql);
    const result = await readRows(sql, args, ctx, { operation: 'postgres.query', limit: ctx.limit });
    return { command: 'postgres.query', ...result };
  },
});
