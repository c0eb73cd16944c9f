import { defineCommand } from '../../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, READ_EFFECTS } from './inputs.js';
import { listOutput, renderList, runListing } from './listing.js';

const input = RootObject({
  ...CONNECTION_INPUTS,
  active: Type.Boolean({ default: false, description: "Only sessions whose state is 'active'" }),
  idle_in_tx: Type.Boolean({ default: false, description: 'Only sessions idle in a transaction (including aborted ones)' }),
});
const text = Nullable(Type.String());
const row = Closed({
  pid: Type.Integer(),
  database: text,
  user: text,
  application_name: text,
  client_addr: text,
  state: text,
  state_change: Nullable(Type.String({ description: 'ISO 8601' })),
  query_start: Nullable(Type.String({ description: 'ISO 8601' })),
  wait_event_type: text,
  wait_event: text,
  query: text,
});
const output = listOutput('postgres.activity', row);

export const activity = defineCommand({
  id: 'postgres.activity',
  title: 'Server activity',
  description:
    "List client sessions from pg_stat_activity (ah's own sessions left out): database, role, application, client address, state, timings, wait event and query text. Other roles' query text needs pg_read_all_stats.",
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  stateless: true,
  examples: [{ description: 'Sessions running a statement now', arguments: { active: true } }],
  render: renderList,
  run: async (args: Static<typeof input>, ctx) => {
    const { idlePids } = await import('./pool.js');
    return runListing<'postgres.activity', Static<typeof row>>('postgres.activity', args, ctx, {
      text: `select pid, datname as database, usename as "user", application_name, host(client_addr) as client_addr, state,
  state_change, query_start, wait_event_type, wait_event, query
from pg_stat_activity
where backend_type = 'client backend' and pid <> pg_backend_pid() and pid <> all($3::int[])
  and (not $1::bool or state = 'active')
  and (not $2::bool or state in ('idle in transaction', 'idle in transaction (aborted)'))
order by query_start nulls last, pid`,
      values: [args.active, args.idle_in_tx, idlePids()],
    });
  },
});
