import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON, gitlabClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Pipeline, pipelineOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Only pipelines of this branch or tag' })),
});
const output = RootObject({
  command: Type.Literal('gitlab.pipelines'),
  project: Type.String(),
  pipelines: Type.Array(Pipeline),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const pipelines = defineCommand({
  id: 'gitlab.pipelines',
  title: 'List GitLab pipelines',
  description: 'Pipelines of the project newest first, optionally of one branch. The limit (default 100) caps them and sets truncated.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  examples: [
    { description: 'Latest pipelines', arguments: {} },
    { description: 'Pipelines of main', arguments: { branch: 'main' } },
  ],
  render: (o: Output) => o.pipelines.map((p) => `${p.id}\t${p.status}\t${p.ref ?? '-'}`).join('\n') || 'no pipelines',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gl = await gitlabClient(args, ctx, 'gitlab.pipelines');
    const query: Record<string, unknown> = { order_by: 'id', sort: 'desc', ...(args.branch ? { ref: args.branch } : {}) };
    const { items, truncated } = await gl.list<Record<string, any>>(gl.projectPath('/pipelines'), query, ctx.limit ?? 100);
    return { command: 'gitlab.pipelines', project: gl.target.project, pipelines: items.map(pipelineOf), truncated };
  },
});
