import { defineCommand } from '../../../catalog/descriptor.js';
import type { Effects } from '../../../catalog/effects.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, SQL_INPUTS, statelessUnlessRelativeFile } from './inputs.js';

const input = RootObject({
  ...CONNECTION_INPUTS,
  ...SQL_INPUTS,
  yes: Type.Boolean({ default: false, description: 'Confirm that the SQL may change the database (required)' }),
  single_transaction: Type.Boolean({ default: false, description: 'Wrap the script in BEGIN … COMMIT (rolled back on any error)' }),
});
const output = RootObject({
  command: Type.Literal('postgres.exec'),
  statements: Type.Array(
    Closed({
      command: Nullable(Type.String({ description: 'The command tag: INSERT, UPDATE, CREATE, …' })),
      row_count: Nullable(Type.Integer({ minimum: 0 })),
    }),
  ),
  single_transaction: Type.Boolean(),
  notices: Type.Array(Type.String(), { description: 'Server NOTICE/WARNING messages (at most 100)' }),
});
type Output = Static<typeof output>;

const EXEC_EFFECTS: Effects = {
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: true,
  effects: ['network_write', 'external_write', 'filesystem_read'],
  risk: 'critical',
  impact: "Runs arbitrary SQL with the role's full rights: it can change or delete data, schema objects and roles.",
  reversibility: 'no',
};

const MAX_NOTICES = 100;

export const exec = defineCommand({
  id: 'postgres.exec',
  title: 'Execute SQL',
  description:
    "Execute a SQL script (one or more ;-separated statements) and report each statement's command tag and row count. Needs yes: true (CONFIRMATION_REQUIRED otherwise). The script goes to the server in one message, which PostgreSQL runs as one implicit transaction unless it holds its own BEGIN/COMMIT; single_transaction wraps it in an explicit BEGIN … COMMIT.",
  inputSchema: input,
  outputSchema: output,
  effects: EXEC_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  stateless: statelessUnlessRelativeFile,
  examples: [
    { description: 'Create a table', arguments: { sql: 'create table notes (id serial primary key, body text)', yes: true } },
    { description: 'Run a migration file atomically', arguments: { file: 'migrations/002.sql', yes: true, single_transaction: true } },
  ],
  render: (o: Output) =>
    [
      ...o.statements.map((s) => `${s.command ?? '(empty)'}${s.row_count === null ? '' : ` ${s.row_count}`}`),
      ...o.notices.map((n) => `notice: ${n}`),
    ].join('\n'),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const [{ requireConfirmation }, { sqlText }, { withSession }] = await Promise.all([
      import('./confirm.js'),
      import('./sql-source.js'),
      import('./session.js'),
    ]);
    requireConfirmation(args.yes, 'postgres.exec', 'postgres exec');
    const sql = await sqlText(args, ctx.cwd);
    return withSession(args, ctx, { readOnly: false, operation: 'postgres.exec' }, async (session) => {
      const notices: string[] = [];
      session.client.on('notice', (msg: { message?: string; severity?: string }) => {
        if (notices.length < MAX_NOTICES) notices.push(`${msg.severity ?? 'NOTICE'}: ${String(msg.message ?? '').slice(0, 1000)}`);
      });
      const client = session.client;
      if (args.single_transaction) await client.query('BEGIN');
      let results: unknown;
      try {
        // The simple protocol on purpose: a script of several statements, like psql -c.
        results = await client.query(sql);
        if (args.single_transaction) await client.query('COMMIT');
      } catch (error) {
        if (args.single_transaction && !ctx.signal.aborted) await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      const list = (Array.isArray(results) ? results : [results]) as { command: string | null; rowCount: number | null }[];
      return {
        command: 'postgres.exec',
        statements: list.map((r) => ({ command: r.command ?? null, row_count: r.rowCount ?? null })),
        single_transaction: args.single_transaction,
        notices,
      };
    });
  },
});
