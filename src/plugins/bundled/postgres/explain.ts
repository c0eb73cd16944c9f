import { defineCommand } from '../../../catalog/descriptor.js';
import type { Effects } from '../../../catalog/effects.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, SQL_INPUTS, statelessUnlessRelativeFile } from './inputs.js';

const input = RootObject({
  ...CONNECTION_INPUTS,
  ...SQL_INPUTS,
  analyze: Type.Boolean({ default: false, description: 'Run the statement and report actual times and rows (needs yes)' }),
  buffers: Type.Boolean({ default: false, description: 'Report buffer usage' }),
  yes: Type.Boolean({ default: false, description: 'Confirm that analyze may execute the statement' }),
});
const output = RootObject({
  command: Type.Literal('postgres.explain'),
  analyze: Type.Boolean(),
  buffers: Type.Boolean(),
  plan: Type.Unsafe<Record<string, unknown>>({
    type: 'object',
    description: "PostgreSQL's EXPLAIN (FORMAT JSON) document: Plan, Planning Time, …",
  }),
});
type Output = Static<typeof output>;

const EXPLAIN_EFFECTS: Effects = {
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: true,
  effects: ['network_read', 'external_read', 'external_write', 'filesystem_read'],
  risk: 'high',
  impact:
    'Without analyze only plans the statement (read-only session). With analyze it executes it inside a transaction that is always rolled back; effects outside transactions (sequences, external calls) remain.',
  reversibility: 'unknown',
};

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

function renderNode(node: PlanNode, depth: number, out: string[]): void {
  const on = node['Relation Name']
    ? ` on ${String(node['Relation Name'])}`
    : node['Index Name']
      ? ` using ${String(node['Index Name'])}`
      : '';
  let line = `${'  '.repeat(depth)}${depth > 0 ? '-> ' : ''}${String(node['Node Type'])}${on} (cost=${String(node['Startup Cost'])}..${String(node['Total Cost'])} rows=${String(node['Plan Rows'])})`;
  if (node['Actual Total Time'] !== undefined)
    line += ` (actual time=${String(node['Actual Total Time'])} rows=${String(node['Actual Rows'])})`;
  out.push(line);
  for (const child of node.Plans ?? []) renderNode(child, depth + 1, out);
}

function render(o: Output): string {
  const out: string[] = [];
  renderNode(o.plan.Plan as PlanNode, 0, out);
  if (o.plan['Planning Time'] !== undefined) out.push(`planning: ${String(o.plan['Planning Time'])} ms`);
  if (o.plan['Execution Time'] !== undefined) out.push(`execution: ${String(o.plan['Execution Time'])} ms (rolled back)`);
  return out.join('\n');
}

export const explain = defineCommand({
  id: 'postgres.explain',
  title: 'Explain a statement',
  description:
    "Show the planner's plan for one statement as EXPLAIN (FORMAT JSON). With analyze (needs yes: true, CONFIRMATION_REQUIRED otherwise) the statement runs inside a transaction that is rolled back, and actual times and rows are added; buffers adds buffer counts.",
  inputSchema: input,
  outputSchema: output,
  effects: EXPLAIN_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  stateless: statelessUnlessRelativeFile,
  examples: [
    { description: 'Plan of a query', arguments: { sql: 'select * from orders where customer_id = 42' } },
    { description: 'Actual run with buffers', arguments: { sql: 'select count(*) from orders', analyze: true, buffers: true, yes: true } },
  ],
  render,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const [{ requireConfirmation }, { sqlText }, { withSession }] = await Promise.all([
      import('./confirm.js'),
      import('./sql-source.js'),
      import('./session.js'),
    ]);
    if (args.analyze) requireConfirmation(args.yes, 'postgres.explain', 'explain with analyze');
    const sql = await sqlText(args, ctx.cwd);
    const options = [`ANALYZE ${args.analyze ? 'true' : 'false'}`, `BUFFERS ${args.buffers ? 'true' : 'false'}`, 'FORMAT JSON'];
    return withSession(args, ctx, { readOnly: !args.analyze, operation: 'postgres.explain' }, async (session) => {
      if (args.analyze) await session.rows('BEGIN');
      try {
        const [row] = await session.rows<{ 'QUERY PLAN': unknown }>(`EXPLAIN (${options.join(', ')}) ${sql}`);
        const document = row?.['QUERY PLAN'];
        const plan = (Array.isArray(document) ? document[0] : document) as Record<string, unknown>;
        return { command: 'postgres.explain', analyze: args.analyze, buffers: args.buffers, plan };
      } finally {
        if (args.analyze && !ctx.signal.aborted) await session.rows('ROLLBACK').catch(() => undefined);
      }
    });
  },
});
