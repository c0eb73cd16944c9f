import { defineCommand } from '../../../catalog/descriptor.js';
import { Closed, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, READ_EFFECTS } from './inputs.js';
import { listOutput, renderList, runListing } from './listing.js';
import { userSchema } from './schemas.js';

const input = RootObject({
  ...CONNECTION_INPUTS,
  schema: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Only indexes in this schema' })),
  table: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Only indexes of tables with this name' })),
});
const row = Closed({
  schema: Type.String(),
  table: Type.String(),
  name: Type.String(),
  definition: Type.String({ description: 'CREATE INDEX statement' }),
  unique: Type.Boolean(),
  primary: Type.Boolean(),
});
const output = listOutput('postgres.indexes', row);

export const indexes = defineCommand({
  id: 'postgres.indexes',
  title: 'List indexes',
  description:
    'List indexes with their table, definition and whether they are unique or the primary key; user schemas unless schema is given.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  stateless: true,
  examples: [{ description: 'Indexes of one table', arguments: { schema: 'public', table: 'orders' } }],
  render: renderList,
  run: (args: Static<typeof input>, ctx) =>
    runListing<'postgres.indexes', Static<typeof row>>('postgres.indexes', args, ctx, {
      text: `select n.nspname as schema, t.relname as "table", i.relname as name, pg_get_indexdef(x.indexrelid) as definition,
  x.indisunique as unique, x.indisprimary as primary
from pg_index x
join pg_class i on i.oid = x.indexrelid
join pg_class t on t.oid = x.indrelid
join pg_namespace n on n.oid = t.relnamespace
where ($1::text is null or n.nspname = $1) and ($2::text is null or t.relname = $2) and ${userSchema('$1::text is not null')}
order by n.nspname, t.relname, i.relname`,
      values: [args.schema ?? null, args.table ?? null],
    }),
});
