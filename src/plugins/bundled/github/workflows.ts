import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON, githubClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Workflow, workflowOf } from './shapes.js';

const input = RootObject({ ...COMMON });
const output = RootObject({
  command: Type.Literal('github.workflows'),
  repository: Type.String(),
  workflows: Type.Array(Workflow),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const workflows = defineCommand({
  id: 'github.workflows',
  title: 'List GitHub Actions workflows',
  description: 'The Actions workflows of the repository with id, file path and state.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  examples: [{ description: 'Workflows of the current repository', arguments: {} }],
  render: (o: Output) => o.workflows.map((w) => `${w.id}\t${w.state}\t${w.path}\t${w.name}`).join('\n') || 'no workflows',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gh = await githubClient(args, ctx, 'github.workflows');
    const { items, truncated } = await gh.list<Record<string, any>>('GET /repos/{owner}/{repo}/actions/workflows', {}, ctx.limit ?? 100);
    return { command: 'github.workflows', repository: `${gh.target.owner}/${gh.target.name}`, workflows: items.map(workflowOf), truncated };
  },
});
