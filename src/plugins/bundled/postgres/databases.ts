import { defineCommand } from '../../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, READ_EFFECTS } from './inputs.js';
import { listOutput, renderList, runListing } from './listing.js';

const input = RootObject({ ...CONNECTION_INPUTS });
const row = Closed({
  name: Type.String(),
  owner: Type.String(),
  encoding: Type.String(),
  allow_connections: Type.Boolean(),
  size: Nullable(Type.String({ description: 'Human-readable size; null without CONNECT privilege' })),
});
const output = listOutput('postgres.databases', row);

export const databases = defineCommand({
  id: 'postgres.databases',
  title: 'List databases',
  description: 'List the databases of the server (templates included) with owner, encoding, whether connections are allowed, and size.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  stateless: true,
  examples: [{ description: 'Databases on a local server', arguments: { host: '127.0.0.1', user: 'postgres' } }],
  render: renderList,
  run: (args: Static<typeof input>, ctx) =>
    runListing<'postgres.databases', Static<typeof row>>('postgres.databases', args, ctx, {
      text: `select d.datname as name, pg_get_userbyid(d.datdba) as owner, pg_encoding_to_char(d.encoding) as encoding,
  d.datallowconn as allow_connections,
  case when has_database_privilege(d.oid, 'CONNECT') then pg_size_pretty(pg_database_size(d.oid)) end as size
from pg_database d
order by d.datname`,
      values: [],
    }),
});
