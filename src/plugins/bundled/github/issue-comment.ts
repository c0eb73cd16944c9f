import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';
import { COMMON, githubClient, stateless, textInput, TOKEN_SLOT, writeEffects } from './shared.js';
import { Comment, commentOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  number: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1, description: 'Issue number' }),
  body: Type.Optional(Type.String({ minLength: 1, maxLength: 65536, description: 'Comment text (Markdown)' })),
  body_file: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'Read the comment from this UTF-8 file' })),
});
const output = RootObject({
  command: Type.Literal('github.issue.comment'),
  repository: Type.String(),
  number: Type.Integer(),
  comment: Comment,
});
type Output = Static<typeof output>;

export const issueComment = defineCommand({
  id: 'github.issue.comment',
  title: 'Comment on a GitHub issue',
  description: 'Post a comment on an issue; exactly one of body and body_file.',
  inputSchema: input,
  outputSchema: output,
  effects: writeEffects('Posts a comment on the issue, visible to everyone who can see it.'),
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['number'] },
  examples: [{ description: 'Reply', arguments: { number: 7, body: 'Looking into it.' } }],
  render: (o: Output) => `commented on #${o.number} ${o.comment.html_url ?? ''}`.trimEnd(),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const body = await textInput(ctx, args.body, args.body_file, ['body', 'body_file']);
    if (body === undefined) {
      throw new AhError({
        code: 'INVALID_ARGUMENT',
        message: 'give the comment as body or body_file',
        domain: 'github',
        operation: 'github.issue.comment',
      });
    }
    const gh = await githubClient(args, ctx, 'github.issue.comment');
    const { data } = await gh.request<Record<string, any>>('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      issue_number: args.number,
      body,
    });
    return {
      command: 'github.issue.comment',
      repository: `${gh.target.owner}/${gh.target.name}`,
      number: args.number,
      comment: commentOf(data),
    };
  },
});
