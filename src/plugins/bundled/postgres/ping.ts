import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, READ_EFFECTS } from './inputs.js';
import { IDENTITY_FIELDS, IDENTITY_SQL, renderIdentity } from './server-info.js';

const input = RootObject({ ...CONNECTION_INPUTS });
const output = RootObject({
  command: Type.Literal('postgres.ping'),
  ok: Type.Literal(true),
  ...IDENTITY_FIELDS,
  latency_ms: Type.Number({ minimum: 0, description: 'Connect plus one round trip, in milliseconds' }),
});
type Output = Static<typeof output>;

export const ping = defineCommand({
  id: 'postgres.ping',
  title: 'Check a connection',
  description:
    'Connect, authenticate and run one query; returns who and where the session is. Fails with the connection, authentication or database code otherwise.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  stateless: true,
  examples: [
    { description: 'Ping a local server', arguments: { host: '127.0.0.1', port: 5432, user: 'postgres' } },
    { description: 'Ping the server a service file entry names', arguments: { service: 'billing' } },
  ],
  render: (o: Output) => `ok (${o.latency_ms} ms)\n${renderIdentity(o)}`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const { withSession } = await import('./session.js');
    const started = performance.now();
    return withSession(args, ctx, { readOnly: true, operation: 'postgres.ping', fresh: true }, async (session) => {
      const [row] = await session.rows<Omit<Output, 'command' | 'ok' | 'latency_ms'>>(IDENTITY_SQL);
      const latency = Math.round((performance.now() - started) * 10) / 10;
      return { command: 'postgres.ping', ok: true, ...(row as Omit<Output, 'command' | 'ok' | 'latency_ms'>), latency_ms: latency };
    });
  },
});
