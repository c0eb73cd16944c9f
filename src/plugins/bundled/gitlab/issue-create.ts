import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { ASSIGNEE_IDS, LABELS } from './iid.js';
import { COMMON, gitlabClient, stateless, textInput, TOKEN_SLOT, writeEffects } from './shared.js';
import { Issue, issueOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  title: Type.String({ minLength: 1, maxLength: 255, description: 'Issue title' }),
  description: Type.Optional(Type.String({ maxLength: 1000000, description: 'Issue description (Markdown)' })),
  description_file: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'Read the description from this UTF-8 file' })),
  labels: Type.Optional(LABELS('Labels to set')),
  assignee_ids: Type.Optional(ASSIGNEE_IDS),
});
const output = RootObject({ command: Type.Literal('gitlab.issue.create'), project: Type.String(), issue: Issue });
type Output = Static<typeof output>;

export const issueCreate = defineCommand({
  id: 'gitlab.issue.create',
  title: 'Open a GitLab issue',
  description: 'Open a new issue with a title, an optional description (inline or from description_file), labels and assignee ids.',
  inputSchema: input,
  outputSchema: output,
  effects: writeEffects('Opens a new issue in the project, visible to everyone who can see it.'),
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { aliases: { label: 'labels', 'assignee-id': 'assignee_ids' } },
  examples: [{ description: 'Report a bug', arguments: { title: 'Crash on start', labels: ['bug'] } }],
  render: (o: Output) => `opened #${o.issue.iid} ${o.issue.web_url ?? ''}`.trimEnd(),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const description = await textInput(ctx, args.description, args.description_file, ['description', 'description_file']);
    const gl = await gitlabClient(args, ctx, 'gitlab.issue.create');
    const body: Record<string, unknown> = { title: args.title };
    if (description !== undefined) body.description = description;
    if (args.labels?.length) body.labels = args.labels.join(',');
    if (args.assignee_ids?.length) body.assignee_ids = args.assignee_ids;
    const data = await gl.request<Record<string, any>>('POST', gl.projectPath('/issues'), { body });
    return { command: 'gitlab.issue.create', project: gl.target.project, issue: issueOf(data) };
  },
});
