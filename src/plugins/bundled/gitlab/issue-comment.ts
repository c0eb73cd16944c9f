import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';
import { IID } from './iid.js';
import { COMMON, gitlabClient, stateless, textInput, TOKEN_SLOT, writeEffects } from './shared.js';
import { Note, noteOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  iid: IID,
  body: Type.Optional(Type.String({ minLength: 1, maxLength: 1000000, description: 'Comment text (Markdown)' })),
  body_file: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'Read the comment from this UTF-8 file' })),
});
const output = RootObject({ command: Type.Literal('gitlab.issue.comment'), project: Type.String(), iid: Type.Integer(), comment: Note });
type Output = Static<typeof output>;

export const issueComment = defineCommand({
  id: 'gitlab.issue.comment',
  title: 'Comment on a GitLab issue',
  description: 'Post a comment (note) on an issue; exactly one of body and body_file.',
  inputSchema: input,
  outputSchema: output,
  effects: writeEffects('Posts a comment on the issue, visible to everyone who can see it.'),
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['iid'] },
  examples: [{ description: 'Reply', arguments: { iid: 7, body: 'Looking into it.' } }],
  render: (o: Output) => `commented on #${o.iid}`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const body = await textInput(ctx, args.body, args.body_file, ['body', 'body_file']);
    if (body === undefined) {
      throw new AhError({
        code: 'INVALID_ARGUMENT',
        message: 'give the comment as body or body_file',
        domain: 'gitlab',
        operation: 'gitlab.issue.comment',
      });
    }
    const gl = await gitlabClient(args, ctx, 'gitlab.issue.comment');
    const data = await gl.request<Record<string, any>>('POST', gl.projectPath(`/issues/${args.iid}/notes`), { body: { body } });
    return { command: 'gitlab.issue.comment', project: gl.target.project, iid: args.iid, comment: noteOf(data) };
  },
});
