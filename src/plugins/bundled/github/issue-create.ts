import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON, githubClient, stateless, textInput, TOKEN_SLOT, writeEffects } from './shared.js';
import { Issue, issueOf } from './shapes.js';

const Names = (what: string) => Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { default: [], maxItems: 50, description: what });

const input = RootObject({
  ...COMMON,
  title: Type.String({ minLength: 1, maxLength: 256, description: 'Issue title' }),
  body: Type.Optional(Type.String({ maxLength: 65536, description: 'Issue body (Markdown)' })),
  body_file: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'Read the body from this UTF-8 file' })),
  labels: Names('Labels to set'),
  assignees: Names('Logins to assign'),
});
const output = RootObject({ command: Type.Literal('github.issue.create'), repository: Type.String(), issue: Issue });
type Output = Static<typeof output>;

export const issueCreate = defineCommand({
  id: 'github.issue.create',
  title: 'Open a GitHub issue',
  description: 'Open a new issue with a title, an optional body (inline or from body_file), labels and assignees.',
  inputSchema: input,
  outputSchema: output,
  effects: writeEffects('Opens a new issue in the repository, visible to everyone who can see it.'),
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { aliases: { label: 'labels', assignee: 'assignees' } },
  examples: [{ description: 'Report a bug', arguments: { title: 'Crash on start', body: 'Steps: …', labels: ['bug'] } }],
  render: (o: Output) => `opened #${o.issue.number} ${o.issue.html_url ?? ''}`.trimEnd(),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const body = await textInput(ctx, args.body, args.body_file, ['body', 'body_file']);
    const gh = await githubClient(args, ctx, 'github.issue.create');
    const payload: Record<string, unknown> = { title: args.title };
    if (body !== undefined) payload.body = body;
    if (args.labels.length > 0) payload.labels = args.labels;
    if (args.assignees.length > 0) payload.assignees = args.assignees;
    const { data } = await gh.request<Record<string, any>>('POST /repos/{owner}/{repo}/issues', payload);
    return { command: 'github.issue.create', repository: `${gh.target.owner}/${gh.target.name}`, issue: issueOf(data) };
  },
});
