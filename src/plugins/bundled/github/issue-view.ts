import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON, githubClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Issue, issueOf } from './shapes.js';

const input = RootObject({ ...COMMON, number: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1, description: 'Issue number' }) });
const output = RootObject({ command: Type.Literal('github.issue.view'), repository: Type.String(), issue: Issue });
type Output = Static<typeof output>;

export const issueView = defineCommand({
  id: 'github.issue.view',
  title: 'Show a GitHub issue',
  description: 'One issue with its body, labels, assignees and comment count.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['number'] },
  examples: [{ description: 'Issue 42', arguments: { number: 42 } }],
  render: (o: Output) => `#${o.issue.number} [${o.issue.state}] ${o.issue.title}\n\n${o.issue.body ?? ''}`.trimEnd(),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gh = await githubClient(args, ctx, 'github.issue.view');
    const { data } = await gh.request<Record<string, any>>('GET /repos/{owner}/{repo}/issues/{issue_number}', {
      issue_number: args.number,
    });
    return { command: 'github.issue.view', repository: `${gh.target.owner}/${gh.target.name}`, issue: issueOf(data) };
  },
});
