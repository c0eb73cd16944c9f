import { defineCommand } from '../../../catalog/descriptor.js';
import { AhError } from '../../../errors.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, READ_EFFECTS } from './inputs.js';
import { renderTable } from './listing.js';
import { RELATION_KIND_SQL } from './relations.js';

const input = RootObject({
  ...CONNECTION_INPUTS,
  object: Type.String({
    minLength: 1,
    maxLength: 2048,
    description:
      'NAME or SCHEMA.NAME of a table, view, materialized view, sequence or foreign table (SQL identifier rules: quote mixed case)',
  }),
});
const output = RootObject({
  command: Type.Literal('postgres.describe'),
  relation: Closed({
    schema: Type.String(),
    name: Type.String(),
    kind: Type.String(),
    owner: Type.String(),
    rows_estimate: Nullable(Type.Number()),
    total_size: Type.String(),
    comment: Nullable(Type.String()),
  }),
  columns: Type.Array(
    Closed({
      ordinal: Type.Integer({ minimum: 1 }),
      name: Type.String(),
      data_type: Type.String(),
      nullable: Type.Boolean(),
      default: Nullable(Type.String()),
      comment: Nullable(Type.String()),
    }),
  ),
  indexes: Type.Array(Closed({ name: Type.String(), definition: Type.String(), unique: Type.Boolean(), primary: Type.Boolean() })),
  constraints: Type.Array(Closed({ name: Type.String(), constraint_type: Type.String(), definition: Type.String() })),
});
type Output = Static<typeof output>;

function render(o: Output): string {
  const r = o.relation;
  const parts = [`${r.kind} ${r.schema}.${r.name} (owner ${r.owner}, ${r.total_size})`, renderTable(o.columns)];
  if (o.indexes.length > 0) parts.push(`indexes:\n${o.indexes.map((i) => `  ${i.definition}`).join('\n')}`);
  if (o.constraints.length > 0) parts.push(`constraints:\n${o.constraints.map((c) => `  ${c.name} ${c.definition}`).join('\n')}`);
  return parts.join('\n\n');
}

export const describe = defineCommand({
  id: 'postgres.describe',
  title: 'Describe a table or view',
  description:
    'Describe one relation: kind, owner, row estimate and size; its columns (type, nullability, default, comment), indexes and constraints.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  cli: { positionals: ['object'] },
  stateless: true,
  examples: [{ description: 'Describe a table', arguments: { object: 'public.orders' } }],
  render,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const { withSession } = await import('./session.js');
    return withSession(args, ctx, { readOnly: true, operation: 'postgres.describe' }, async (session) => {
      const [relation] = await session.rows<Output['relation'] & { oid: number }>(
        `select c.oid, n.nspname as schema, c.relname as name, ${RELATION_KIND_SQL} as kind, pg_get_userbyid(c.relowner) as owner,
  case when c.reltuples < 0 then null else round(c.reltuples)::float8 end as rows_estimate,
  pg_size_pretty(pg_total_relation_size(c.oid)) as total_size, obj_description(c.oid, 'pg_class') as comment
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where c.oid = to_regclass($1)`,
        [args.object],
      );
      if (!relation) {
        throw new AhError({
          code: 'POSTGRES_OBJECT_NOT_FOUND',
          message: `no relation named '${args.object}' in database '${session.target.database}'`,
          cause: 'to_regclass found nothing on the search path (or in the named schema)',
          hint: "List them with 'ah postgres tables' or 'ah postgres views'; quote mixed-case names (\"MyTable\").",
          domain: 'postgres',
          operation: 'postgres.describe',
        });
      }
      const { oid, ...rel } = relation;
      const columns = await session.rows<Output['columns'][number]>(
        `select a.attnum::int as ordinal, a.attname as name, format_type(a.atttypid, a.atttypmod) as data_type, not a.attnotnull as nullable,
  pg_get_expr(d.adbin, d.adrelid) as default, col_description(a.attrelid, a.attnum) as comment
from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped
order by a.attnum`,
        [oid],
      );
      const indexes = await session.rows<Output['indexes'][number]>(
        `select i.relname as name, pg_get_indexdef(x.indexrelid) as definition, x.indisunique as unique, x.indisprimary as primary
from pg_index x join pg_class i on i.oid = x.indexrelid
where x.indrelid = $1
order by i.relname`,
        [oid],
      );
      const constraints = await session.rows<Output['constraints'][number]>(
        `select conname as name,
  case contype when 'p' then 'primary key' when 'f' then 'foreign key' when 'u' then 'unique' when 'c' then 'check'
    when 'x' then 'exclusion' when 'n' then 'not null' when 't' then 'trigger' else contype::text end as constraint_type,
  pg_get_constraintdef(oid) as definition
from pg_constraint
where conrelid = $1
order by conname`,
        [oid],
      );
      return { command: 'postgres.describe', relation: rel, columns, indexes, constraints };
    });
  },
});
