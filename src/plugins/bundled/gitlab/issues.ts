import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { LABELS } from './iid.js';
import { COMMON, gitlabClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Issue, issueOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  state: Type.Union([Type.Literal('opened'), Type.Literal('closed'), Type.Literal('all')], {
    default: 'opened',
    description: 'opened, closed or all',
  }),
  labels: Type.Optional(LABELS('Only issues with every one of these labels')),
  assignee: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Assignee username' })),
  author: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Author username' })),
  since: Type.Optional(
    Type.String({ maxLength: 40, pattern: '^\\d{4}-\\d{2}-\\d{2}', description: 'Only issues updated at or after this ISO 8601 time' }),
  ),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Search in title and description' })),
});
const output = RootObject({
  command: Type.Literal('gitlab.issues'),
  project: Type.String(),
  issues: Type.Array(Issue),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const issues = defineCommand({
  id: 'gitlab.issues',
  title: 'List GitLab issues',
  description:
    'Issues of the project newest first, filtered by state, labels, assignee, author, since (updated after) and search. The limit (default 100) caps them and sets truncated.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { aliases: { label: 'labels' } },
  examples: [
    { description: 'Open issues', arguments: {} },
    { description: 'Closed bugs', arguments: { state: 'closed', labels: ['bug'] } },
  ],
  render: (o: Output) => o.issues.map((i) => `#${i.iid} [${i.state}] ${i.title}`).join('\n') || 'no issues',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gl = await gitlabClient(args, ctx, 'gitlab.issues');
    const query: Record<string, unknown> = { state: args.state, order_by: 'created_at', sort: 'desc' };
    if (args.state === 'all') delete query.state;
    if (args.labels?.length) query.labels = args.labels.join(',');
    if (args.assignee) query.assignee_username = args.assignee;
    if (args.author) query.author_username = args.author;
    if (args.since) query.updated_after = args.since;
    if (args.search) query.search = args.search;
    const { items, truncated } = await gl.list<Record<string, any>>(gl.projectPath('/issues'), query, ctx.limit ?? 100);
    return { command: 'gitlab.issues', project: gl.target.project, issues: items.map(issueOf), truncated };
  },
});
