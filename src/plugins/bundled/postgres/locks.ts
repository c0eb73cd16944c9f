import { defineCommand } from '../../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, READ_EFFECTS } from './inputs.js';
import { listOutput, renderList, runListing } from './listing.js';

const input = RootObject({
  ...CONNECTION_INPUTS,
  blocking: Type.Boolean({ default: false, description: 'Only lock requests that wait, each with the session blocking it' }),
});
const text = Nullable(Type.String());
const row = Closed({
  blocked_pid: Type.Integer({ description: 'The session holding or waiting for the lock' }),
  blocked_user: text,
  blocked_query: text,
  blocking_pid: Nullable(Type.Integer({ description: 'The session it waits for (null when the lock is granted)' })),
  blocking_user: text,
  blocking_query: text,
  lock_type: Type.String(),
  mode: Type.String(),
  granted: Type.Boolean(),
  relation: text,
});
const output = listOutput('postgres.locks', row);

export const locks = defineCommand({
  id: 'postgres.locks',
  title: 'Locks',
  description:
    'List the locks of other sessions from pg_locks: who holds or waits (blocked_*), who blocks a waiting request (blocking_*), lock type, mode and relation. With blocking, only waiting requests.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  stateless: true,
  examples: [{ description: 'Who blocks whom', arguments: { blocking: true } }],
  render: renderList,
  run: (args: Static<typeof input>, ctx) =>
    runListing<'postgres.locks', Static<typeof row>>('postgres.locks', args, ctx, {
      text: `select l.pid as blocked_pid, a.usename as blocked_user, a.query as blocked_query,
  b.pid as blocking_pid, ba.usename as blocking_user, ba.query as blocking_query,
  l.locktype as lock_type, l.mode, l.granted, l.relation::regclass::text as relation
from pg_locks l
left join pg_stat_activity a on a.pid = l.pid
left join lateral unnest(case when l.granted then '{}'::int[] else pg_blocking_pids(l.pid) end) as b(pid) on true
left join pg_stat_activity ba on ba.pid = b.pid
where l.pid is not null and l.pid <> pg_backend_pid() and (not $1::bool or not l.granted)
order by l.granted, l.pid, l.locktype, l.mode`,
      values: [args.blocking],
    }),
});
