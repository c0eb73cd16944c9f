import { defineCommand } from '../../../catalog/descriptor.js';
import { Closed, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, READ_EFFECTS } from './inputs.js';
import { listOutput, renderList, runListing } from './listing.js';

export const INCLUDE_SYSTEM = Type.Boolean({
  default: false,
  description: 'Include pg_catalog, information_schema, pg_toast and other pg_* schemas',
});
/** SQL predicate on a schema-name column `n.nspname`: user schemas only unless $N is true. */
export const userSchema = (param: string) => `(${param} or (n.nspname !~ '^pg_' and n.nspname <> 'information_schema'))`;

const input = RootObject({ ...CONNECTION_INPUTS, include_system: INCLUDE_SYSTEM });
const row = Closed({ name: Type.String(), owner: Type.String() });
const output = listOutput('postgres.schemas', row);

export const schemas = defineCommand({
  id: 'postgres.schemas',
  title: 'List schemas',
  description: 'List the schemas of the current database with their owners; system schemas only with include_system.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  stateless: true,
  examples: [{ description: 'User schemas of a database', arguments: { database: 'app' } }],
  render: renderList,
  run: (args: Static<typeof input>, ctx) =>
    runListing<'postgres.schemas', Static<typeof row>>('postgres.schemas', args, ctx, {
      text: `select n.nspname as name, pg_get_userbyid(n.nspowner) as owner
from pg_namespace n
where ${userSchema('$1::bool')}
order by n.nspname`,
      values: [args.include_system],
    }),
});
