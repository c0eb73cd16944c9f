import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { RUN_ID } from './run-id.js';
import { COMMON, githubClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Job, jobOf } from './shapes.js';

const input = RootObject({ ...COMMON, run_id: RUN_ID });
const output = RootObject({
  command: Type.Literal('github.run.jobs'),
  repository: Type.String(),
  run_id: Type.Integer(),
  jobs: Type.Array(Job),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const runJobs = defineCommand({
  id: 'github.run.jobs',
  title: 'List jobs of a GitHub Actions run',
  description: 'The jobs of a run with their steps, statuses and conclusions.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['run_id'] },
  examples: [{ description: 'Jobs of run 30433642', arguments: { run_id: 30433642 } }],
  render: (o: Output) => o.jobs.map((j) => `${j.id}\t${j.status ?? '-'}/${j.conclusion ?? '-'}\t${j.name}`).join('\n') || 'no jobs',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gh = await githubClient(args, ctx, 'github.run.jobs');
    const { items, truncated } = await gh.list<Record<string, any>>(
      'GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs',
      { run_id: args.run_id },
      ctx.limit ?? 100,
    );
    return {
      command: 'github.run.jobs',
      repository: `${gh.target.owner}/${gh.target.name}`,
      run_id: args.run_id,
      jobs: items.map(jobOf),
      truncated,
    };
  },
});
