import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';
import { ASSIGNEE_IDS, IID, LABELS } from './iid.js';
import { COMMON, gitlabClient, stateless, textInput, TOKEN_SLOT, writeEffects } from './shared.js';
import { Issue, issueOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  iid: IID,
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'New title' })),
  description: Type.Optional(Type.String({ maxLength: 1000000, description: 'New description' })),
  description_file: Type.Optional(
    Type.String({ minLength: 1, maxLength: 4096, description: 'Read the new description from this UTF-8 file' }),
  ),
  state: Type.Optional(Type.Union([Type.Literal('opened'), Type.Literal('closed')], { description: 'opened or closed' })),
  labels: Type.Optional(LABELS('Replace the labels with these')),
  assignee_ids: Type.Optional(ASSIGNEE_IDS),
});
const output = RootObject({ command: Type.Literal('gitlab.issue.update'), project: Type.String(), issue: Issue });
type Output = Static<typeof output>;

export const issueUpdate = defineCommand({
  id: 'gitlab.issue.update',
  title: 'Edit a GitLab issue',
  description: 'Change the title, description, state, labels or assignees of an issue; at least one field. Lists replace the current ones.',
  inputSchema: input,
  outputSchema: output,
  effects: writeEffects('Changes an existing issue (the previous text stays in its history).', true),
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['iid'], aliases: { label: 'labels', 'assignee-id': 'assignee_ids' } },
  examples: [{ description: 'Close and relabel', arguments: { iid: 7, state: 'closed', labels: ['done'] } }],
  render: (o: Output) => `updated #${o.issue.iid} [${o.issue.state}] ${o.issue.title}`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const description = await textInput(ctx, args.description, args.description_file, ['description', 'description_file']);
    const body: Record<string, unknown> = {};
    if (args.title !== undefined) body.title = args.title;
    if (description !== undefined) body.description = description;
    // GitLab changes state through an event, not a state field.
    if (args.state !== undefined) body.state_event = args.state === 'closed' ? 'close' : 'reopen';
    if (args.labels !== undefined) body.labels = args.labels.join(',');
    if (args.assignee_ids !== undefined) body.assignee_ids = args.assignee_ids;
    if (Object.keys(body).length === 0) {
      throw new AhError({
        code: 'INVALID_ARGUMENT',
        message: 'nothing to change: give at least one of title, description, description_file, state, labels, assignee_ids',
        domain: 'gitlab',
        operation: 'gitlab.issue.update',
      });
    }
    const gl = await gitlabClient(args, ctx, 'gitlab.issue.update');
    const data = await gl.request<Record<string, any>>('PUT', gl.projectPath(`/issues/${args.iid}`), { body });
    return { command: 'gitlab.issue.update', project: gl.target.project, issue: issueOf(data) };
  },
});
