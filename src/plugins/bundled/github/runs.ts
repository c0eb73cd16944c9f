import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON, githubClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Run, runOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  workflow: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Only runs of this workflow (id or file name)' })),
  branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Only runs on this branch' })),
});
const output = RootObject({
  command: Type.Literal('github.runs'),
  repository: Type.String(),
  runs: Type.Array(Run),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const runs = defineCommand({
  id: 'github.runs',
  title: 'List GitHub Actions runs',
  description: 'Workflow runs newest first, optionally of one workflow or branch. The limit (default 100) caps them and sets truncated.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  examples: [
    { description: 'Latest runs', arguments: {} },
    { description: 'Runs of ci.yml on main', arguments: { workflow: 'ci.yml', branch: 'main' } },
  ],
  render: (o: Output) =>
    o.runs.map((r) => `${r.id}\t${r.status ?? '-'}/${r.conclusion ?? '-'}\t${r.head_branch ?? '-'}\t${r.name ?? ''}`).join('\n') ||
    'no runs',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gh = await githubClient(args, ctx, 'github.runs');
    const params: Record<string, unknown> = args.branch ? { branch: args.branch } : {};
    const route = args.workflow
      ? 'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs'
      : 'GET /repos/{owner}/{repo}/actions/runs';
    if (args.workflow) params.workflow_id = /^\d+$/.test(args.workflow) ? Number(args.workflow) : args.workflow;
    const { items, truncated } = await gh.list<Record<string, any>>(route, params, ctx.limit ?? 100);
    return { command: 'github.runs', repository: `${gh.target.owner}/${gh.target.name}`, runs: items.map(runOf), truncated };
  },
});
