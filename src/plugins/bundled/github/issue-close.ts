import { defineCommand } from '../../../catalog/descriptor.js';
import { Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON, githubClient, stateless, textInput, TOKEN_SLOT, writeEffects } from './shared.js';
import { Comment, commentOf, Issue, issueOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  number: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1, description: 'Issue number' }),
  comment: Type.Optional(Type.String({ minLength: 1, maxLength: 65536, description: 'A comment to post before closing' })),
  comment_file: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'Read the comment from this UTF-8 file' })),
});
const output = RootObject({
  command: Type.Literal('github.issue.close'),
  repository: Type.String(),
  issue: Issue,
  comment: Nullable(Comment),
});
type Output = Static<typeof output>;

export const issueClose = defineCommand({
  id: 'github.issue.close',
  title: 'Close a GitHub issue',
  description: 'Close an issue, first posting an optional comment (inline or from comment_file).',
  inputSchema: input,
  outputSchema: output,
  effects: writeEffects('Closes the issue (it can be reopened) and may post a comment.'),
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['number'] },
  examples: [{ description: 'Close with a note', arguments: { number: 7, comment: 'Fixed in 1.2.0.' } }],
  render: (o: Output) => `closed #${o.issue.number}${o.comment ? ' (with a comment)' : ''}`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const text = await textInput(ctx, args.comment, args.comment_file, ['comment', 'comment_file']);
    const gh = await githubClient(args, ctx, 'github.issue.close');
    let comment: Output['comment'] = null;
    if (text !== undefined) {
      const posted = await gh.request<Record<string, any>>('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        issue_number: args.number,
        body: text,
      });
      comment = commentOf(posted.data);
    }
    const { data } = await gh.request<Record<string, any>>('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
      issue_number: args.number,
      state: 'closed',
    });
    return { command: 'github.issue.close', repository: `${gh.target.owner}/${gh.target.name}`, issue: issueOf(data), comment };
  },
});
