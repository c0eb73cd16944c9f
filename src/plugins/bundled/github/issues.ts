import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON, githubClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Issue, type IssueOut, issueOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  state: Type.Union([Type.Literal('open'), Type.Literal('closed'), Type.Literal('all')], {
    default: 'open',
    description: 'open, closed or all',
  }),
  labels: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    default: [],
    maxItems: 50,
    description: 'Only issues with every one of these labels',
  }),
  assignee: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Assignee login' })),
  author: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Author login' })),
  since: Type.Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}(T[0-9:.]+(Z|[+-]\\d{2}:\\d{2}))?$',
      maxLength: 40,
      description: 'Only issues updated at or after this ISO 8601 time',
    }),
  ),
  search: Type.Optional(
    Type.String({ minLength: 1, maxLength: 256, description: 'Search text (GitHub issue search, scoped to the repository)' }),
  ),
});
const output = RootObject({
  command: Type.Literal('github.issues'),
  repository: Type.String(),
  issues: Type.Array(Issue),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const issues = defineCommand({
  id: 'github.issues',
  title: 'List GitHub issues',
  description:
    'List issues of the repository newest first (pull requests are left out). Filters: state, labels, assignee, author, since; ' +
    'search uses GitHub issue search scoped to the repository. The limit caps the list and sets truncated.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { aliases: { label: 'labels' } },
  examples: [
    { description: 'Open issues', arguments: {} },
    { description: 'Closed bugs', arguments: { state: 'closed', labels: ['bug'] } },
    { description: 'Search', arguments: { repo: 'octocat/hello-world', search: 'crash on start' } },
  ],
  render: (o: Output) =>
    [...o.issues.map((i) => `#${i.number} [${i.state}] ${i.title}`), ...(o.truncated ? ['[more issues: raise --limit]'] : [])].join('\n') ||
    'no issues',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gh = await githubClient(args, ctx, 'github.issues');
    const repository = `${gh.target.owner}/${gh.target.name}`;
    const limit = ctx.limit ?? 100;
    let raw: { items: Record<string, any>[]; truncated: boolean };
    if (args.search) {
      const q = [
        args.search,
        `repo:${repository}`,
        'is:issue',
        ...(args.state === 'all' ? [] : [`state:${args.state}`]),
        ...args.labels.map((l) => `label:"${l.replace(/"/g, '')}"`),
        ...(args.assignee ? [`assignee:${args.assignee}`] : []),
        ...(args.author ? [`author:${args.author}`] : []),
        ...(args.since ? [`updated:>=${args.since}`] : []),
      ].join(' ');
      raw = await gh.list('GET /search/issues', { q, sort: 'created', order: 'desc' }, limit);
    } else {
      const params: Record<string, unknown> = { state: args.state, sort: 'created', direction: 'desc' };
      if (args.labels.length > 0) params.labels = args.labels.join(',');
      if (args.assignee) params.assignee = args.assignee;
      if (args.author) params.creator = args.author;
      if (args.since) params.since = args.since;
      // The issues endpoint lists pull requests too; they are skipped while paging.
      raw = await gh.list<Record<string, any>>('GET /repos/{owner}/{repo}/issues', params, limit, (i) => !i.pull_request);
    }
    const list: IssueOut[] = raw.items.map(issueOf);
    return { command: 'github.issues', repository, issues: list, truncated: raw.truncated };
  },
});
