import { defineCommand } from '../../../catalog/descriptor.js';
import { Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, READ_EFFECTS } from './inputs.js';
import { IDENTITY_FIELDS, IDENTITY_SQL, renderIdentity } from './server-info.js';

const input = RootObject({ ...CONNECTION_INPUTS });
const output = RootObject({
  command: Type.Literal('postgres.info'),
  ...IDENTITY_FIELDS,
  server_version_num: Type.Integer(),
  in_recovery: Type.Boolean({ description: 'The server is a standby (or recovering)' }),
  started_at: Type.String({ description: 'When the server started (ISO 8601)' }),
  max_connections: Type.Integer(),
  time_zone: Nullable(Type.String()),
});
type Output = Static<typeof output>;

export const info = defineCommand({
  id: 'postgres.info',
  title: 'Server and session information',
  description:
    'Who and where the session is (database, schema, roles, server version and encoding, address, TLS) plus version number, recovery state, start time, max_connections and time zone.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  stateless: true,
  examples: [{ description: 'Server information', arguments: { host: 'db.internal', database: 'app' } }],
  render: (o: Output) =>
    `${renderIdentity(o)}\nversion ${o.server_version_num}, ${o.in_recovery ? 'standby' : 'primary'}, started ${o.started_at}, max_connections ${o.max_connections}`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const { withSession } = await import('./session.js');
    return withSession(args, ctx, { readOnly: true, operation: 'postgres.info' }, async (session) => {
      const [row] = await session.rows<Omit<Output, 'command'>>(
        `select i.*, current_setting('server_version_num')::int as server_version_num, pg_is_in_recovery() as in_recovery,
  pg_postmaster_start_time() as started_at, current_setting('max_connections')::int as max_connections,
  current_setting('TimeZone') as time_zone
from (${IDENTITY_SQL}) i`,
      );
      return { command: 'postgres.info', ...(row as Omit<Output, 'command'>) };
    });
  },
});
