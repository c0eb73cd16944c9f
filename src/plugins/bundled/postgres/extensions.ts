import { defineCommand } from '../../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, READ_EFFECTS } from './inputs.js';
import { listOutput, renderList, runListing } from './listing.js';

const input = RootObject({
  ...CONNECTION_INPUTS,
  available: Type.Boolean({ default: false, description: 'List every extension the server can install, not only the installed ones' }),
});
const row = Closed({
  name: Type.String(),
  schema: Nullable(Type.String()),
  installed_version: Nullable(Type.String()),
  default_version: Nullable(Type.String()),
  comment: Nullable(Type.String()),
});
const output = listOutput('postgres.extensions', row);

const INSTALLED = `select e.extname as name, n.nspname as schema, e.extversion as installed_version, a.default_version, a.comment
from pg_extension e
join pg_namespace n on n.oid = e.extnamespace
left join pg_available_extensions a on a.name = e.extname
order by e.extname`;

const AVAILABLE = `select a.name, n.nspname as schema, a.installed_version, a.default_version, a.comment
from pg_available_extensions a
left join pg_extension e on e.extname = a.name
left join pg_namespace n on n.oid = e.extnamespace
order by a.name`;

export const extensions = defineCommand({
  id: 'postgres.extensions',
  title: 'List extensions',
  description:
    'List the extensions installed in the current database (with available, every extension the server offers) with versions and comments.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  stateless: true,
  examples: [{ description: 'Extensions the server can install', arguments: { available: true } }],
  render: renderList,
  run: (args: Static<typeof input>, ctx) =>
    runListing<'postgres.extensions', Static<typeof row>>('postgres.extensions', args, ctx, {
      text: args.available ? AVAILABLE : INSTALLED,
      values: [],
    }),
});
