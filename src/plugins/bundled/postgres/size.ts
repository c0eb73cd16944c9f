import { defineCommand } from '../../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, READ_EFFECTS } from './inputs.js';
import { listOutput, renderList, runListing } from './listing.js';
import { userSchema } from './schemas.js';

const input = RootObject({
  ...CONNECTION_INPUTS,
  schema: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Sizes of the tables in this schema' })),
  table: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Size of this table (NAME or SCHEMA.NAME)' })),
});
const row = Closed({
  scope: Type.String({ description: 'database, schema or table' }),
  schema: Nullable(Type.String()),
  name: Type.String(),
  bytes: Type.Number({ minimum: 0 }),
  size: Type.String({ description: 'Human-readable' }),
});
const output = listOutput('postgres.size', row);

const DATABASE_AND_SCHEMAS = `select 'database' as scope, null::text as schema, current_database()::text as name,
  pg_database_size(current_database())::float8 as bytes, pg_size_pretty(pg_database_size(current_database())) as size, 0 as ord
union all
select 'schema', null, n.nspname::text, s.bytes, pg_size_pretty(s.bytes::bigint), 1
from pg_namespace n
cross join lateral (select coalesce(sum(pg_total_relation_size(c.oid)), 0)::float8 as bytes
  from pg_class c where c.relnamespace = n.oid and c.relkind in ('r', 'p', 'm')) s
where ${userSchema('false')}
order by ord, bytes desc, name`;

const TABLES = `select 'table' as scope, n.nspname::text as schema, c.relname::text as name,
  pg_total_relation_size(c.oid)::float8 as bytes, pg_size_pretty(pg_total_relation_size(c.oid)) as size
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where c.relkind in ('r', 'p', 'm') and ($1::text is null or n.nspname = $1)
  and ($2::text is null or c.oid = to_regclass(case when $1::text is null then $2 else quote_ident($1) || '.' || quote_ident($2) end))
order by bytes desc, n.nspname, c.relname`;

export const size = defineCommand({
  id: 'postgres.size',
  title: 'Sizes',
  description:
    'Disk sizes: with no options the current database and each user schema; with schema, its tables; with table, that table (indexes and TOAST included).',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  stateless: true,
  examples: [
    { description: 'Database and schema sizes', arguments: {} },
    { description: 'Largest tables of a schema', arguments: { schema: 'public' } },
  ],
  render: renderList,
  async run(args: Static<typeof input>, ctx) {
    if (args.schema === undefined && args.table === undefined) {
      const result = await runListing<'postgres.size', Static<typeof row> & { ord?: number }>('postgres.size', args, ctx, {
        text: DATABASE_AND_SCHEMAS,
        values: [],
      });
      for (const r of result.rows) delete r.ord;
      return result;
    }
    return runListing<'postgres.size', Static<typeof row>>('postgres.size', args, ctx, {
      text: TABLES,
      values: [args.schema ?? null, args.table ?? null],
    });
  },
});
