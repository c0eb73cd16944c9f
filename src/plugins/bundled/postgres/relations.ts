/** tables and views: one listing over pg_class, different relation kinds. */
import { defineCommand } from '../../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, READ_EFFECTS } from './inputs.js';
import { listOutput, renderList, runListing } from './listing.js';
import { INCLUDE_SYSTEM, userSchema } from './schemas.js';

export const RELATION_KIND_SQL = `case c.relkind when 'r' then 'table' when 'p' then 'partitioned table' when 'f' then 'foreign table'
  when 'v' then 'view' when 'm' then 'materialized view' when 'i' then 'index' when 'S' then 'sequence' else c.relkind::text end`;

const input = RootObject({
  ...CONNECTION_INPUTS,
  schema: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Only this schema (exact name)' })),
  include_system: INCLUDE_SYSTEM,
});
export const RELATION_ROW = Closed({
  schema: Type.String(),
  name: Type.String(),
  kind: Type.String({ description: 'table, partitioned table, foreign table, view or materialized view' }),
  owner: Type.String(),
  rows_estimate: Nullable(Type.Number({ description: "The planner's row estimate (null before the first ANALYZE)" })),
  size: Type.String({ description: 'Total size with indexes and TOAST, human-readable' }),
});

function relationCommand<C extends 'postgres.tables' | 'postgres.views'>(id: C, kinds: string[], title: string, description: string) {
  return defineCommand({
    id,
    title,
    description,
    inputSchema: input,
    outputSchema: listOutput(id, RELATION_ROW),
    effects: READ_EFFECTS,
    credentialSlots: [DATABASE_SLOT],
    stateless: true,
    examples: [{ description: `${title} in the public schema`, arguments: { schema: 'public' } }],
    render: renderList,
    run: (args: Static<typeof input>, ctx) =>
      runListing<C, Static<typeof RELATION_ROW>>(id, args, ctx, {
        text: `select n.nspname as schema, c.relname as name, ${RELATION_KIND_SQL} as kind, pg_get_userbyid(c.relowner) as owner,
  case when c.reltuples < 0 then null else round(c.reltuples)::float8 end as rows_estimate,
  pg_size_pretty(pg_total_relation_size(c.oid)) as size
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where c.relkind = any($1::"char"[]) and ($2::text is null or n.nspname = $2) and ${userSchema('$3::bool or $2::text is not null')}
order by n.nspname, c.relname`,
        values: [kinds, args.schema ?? null, args.include_system],
      }),
  });
}

export const tables = relationCommand(
  'postgres.tables',
  ['r', 'p', 'f'],
  'List tables',
  'List tables (ordinary, partitioned and foreign) with schema, owner, row estimate and total size; user schemas unless schema or include_system is given.',
);

export const views = relationCommand(
  'postgres.views',
  ['v', 'm'],
  'List views',
  'List views and materialized views with schema, owner, row estimate and size; user schemas unless schema or include_system is given.',
);
