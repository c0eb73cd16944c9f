import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { RUN_ID } from './run-id.js';
import { COMMON, githubClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Run, runOf } from './shapes.js';

const input = RootObject({ ...COMMON, run_id: RUN_ID });
const output = RootObject({ command: Type.Literal('github.run.get'), repository: Type.String(), run: Run });
type Output = Static<typeof output>;

export const runGet = defineCommand({
  id: 'github.run.get',
  title: 'Show a GitHub Actions run',
  description: 'One workflow run: status, conclusion, branch, commit and URL.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['run_id'] },
  examples: [{ description: 'Run 30433642', arguments: { run_id: 30433642 } }],
  render: (o: Output) =>
    `${o.run.id} ${o.run.name ?? ''}: ${o.run.status ?? '-'}/${o.run.conclusion ?? '-'} ${o.run.html_url ?? ''}`.trimEnd(),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gh = await githubClient(args, ctx, 'github.run.get');
    const { data } = await gh.request<Record<string, any>>('GET /repos/{owner}/{repo}/actions/runs/{run_id}', { run_id: args.run_id });
    return { command: 'github.run.get', repository: `${gh.target.owner}/${gh.target.name}`, run: runOf(data) };
  },
});
