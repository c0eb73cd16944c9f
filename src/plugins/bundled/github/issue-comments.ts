import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON, githubClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Comment, commentOf } from './shapes.js';

const input = RootObject({ ...COMMON, number: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1, description: 'Issue number' }) });
const output = RootObject({
  command: Type.Literal('github.issue.comments'),
  repository: Type.String(),
  number: Type.Integer(),
  comments: Type.Array(Comment),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const issueComments = defineCommand({
  id: 'github.issue.comments',
  title: 'List comments of a GitHub issue',
  description: 'The comments of an issue, oldest first. The limit (default 100) caps them and sets truncated.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['number'] },
  examples: [{ description: 'Comments of issue 7', arguments: { number: 7 } }],
  render: (o: Output) =>
    o.comments.map((c) => `${c.user?.login ?? '?'} at ${c.created_at}:\n${c.body ?? ''}`).join('\n\n') || 'no comments',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gh = await githubClient(args, ctx, 'github.issue.comments');
    const { items, truncated } = await gh.list<Record<string, any>>(
      'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
      { issue_number: args.number },
      ctx.limit ?? 100,
    );
    return {
      command: 'github.issue.comments',
      repository: `${gh.target.owner}/${gh.target.name}`,
      number: args.number,
      comments: items.map(commentOf),
      truncated,
    };
  },
});
