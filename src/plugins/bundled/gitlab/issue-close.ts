import { defineCommand } from '../../../catalog/descriptor.js';
import { Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { IID } from './iid.js';
import { COMMON, gitlabClient, stateless, textInput, TOKEN_SLOT, writeEffects } from './shared.js';
import { Issue, issueOf, Note, noteOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  iid: IID,
  comment: Type.Optional(Type.String({ minLength: 1, maxLength: 1000000, description: 'A comment to post before closing' })),
  comment_file: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'Read the comment from this UTF-8 file' })),
});
const output = RootObject({ command: Type.Literal('gitlab.issue.close'), project: Type.String(), issue: Issue, comment: Nullable(Note) });
type Output = Static<typeof output>;

export const issueClose = defineCommand({
  id: 'gitlab.issue.close',
  title: 'Close a GitLab issue',
  description: 'Close an issue, first posting an optional comment (inline or from comment_file).',
  inputSchema: input,
  outputSchema: output,
  effects: writeEffects('Closes the issue (it can be reopened) and may post a comment.'),
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['iid'] },
  examples: [{ description: 'Close with a note', arguments: { iid: 7, comment: 'Fixed in 1.2.0.' } }],
  render: (o: Output) => `closed #${o.issue.iid}${o.comment ? ' (with a comment)' : ''}`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const text = await textInput(ctx, args.comment, args.comment_file, ['comment', 'comment_file']);
    const gl = await gitlabClient(args, ctx, 'gitlab.issue.close');
    const comment =
      text === undefined
        ? null
        : noteOf(await gl.request<Record<string, any>>('POST', gl.projectPath(`/issues/${args.iid}/notes`), { body: { body: text } }));
    const data = await gl.request<Record<string, any>>('PUT', gl.projectPath(`/issues/${args.iid}`), { body: { state_event: 'close' } });
    return { command: 'gitlab.issue.close', project: gl.target.project, issue: issueOf(data), comment };
  },
});
