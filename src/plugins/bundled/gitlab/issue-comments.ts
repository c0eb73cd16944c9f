import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { IID } from './iid.js';
import { COMMON, gitlabClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Note, noteOf } from './shapes.js';

const input = RootObject({ ...COMMON, iid: IID });
const output = RootObject({
  command: Type.Literal('gitlab.issue.comments'),
  project: Type.String(),
  iid: Type.Integer(),
  comments: Type.Array(Note),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const issueComments = defineCommand({
  id: 'gitlab.issue.comments',
  title: 'List comments of a GitLab issue',
  description: 'The comments (notes) of an issue, oldest first, system notes included (system: true). The limit (default 100) caps them.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['iid'] },
  examples: [{ description: 'Comments of issue 7', arguments: { iid: 7 } }],
  render: (o: Output) =>
    o.comments.map((c) => `${c.author?.username ?? '?'} at ${c.created_at}:\n${c.body ?? ''}`).join('\n\n') || 'no comments',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gl = await gitlabClient(args, ctx, 'gitlab.issue.comments');
    const { items, truncated } = await gl.list<Record<string, any>>(
      gl.projectPath(`/issues/${args.iid}/notes`),
      { sort: 'asc', order_by: 'created_at' },
      ctx.limit ?? 100,
    );
    return { command: 'gitlab.issue.comments', project: gl.target.project, iid: args.iid, comments: items.map(noteOf), truncated };
  },
});
