import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { PIPELINE_ID } from './pipeline-get.js';
import { COMMON, gitlabClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Job, jobOf } from './shapes.js';

const input = RootObject({ ...COMMON, pipeline_id: PIPELINE_ID });
const output = RootObject({
  command: Type.Literal('gitlab.pipeline.jobs'),
  project: Type.String(),
  pipeline_id: Type.Integer(),
  jobs: Type.Array(Job),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const pipelineJobs = defineCommand({
  id: 'gitlab.pipeline.jobs',
  title: 'List jobs of a GitLab pipeline',
  description: 'The jobs of a pipeline with stage, status and duration (job ids feed gitlab.job.trace).',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['pipeline_id'] },
  examples: [{ description: 'Jobs of pipeline 46', arguments: { pipeline_id: 46 } }],
  render: (o: Output) => o.jobs.map((j) => `${j.id}\t${j.stage ?? '-'}\t${j.status}\t${j.name}`).join('\n') || 'no jobs',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gl = await gitlabClient(args, ctx, 'gitlab.pipeline.jobs');
    const { items, truncated } = await gl.list<Record<string, any>>(
      gl.projectPath(`/pipelines/${args.pipeline_id}/jobs`),
      {},
      ctx.limit ?? 100,
    );
    return {
      command: 'gitlab.pipeline.jobs',
      project: gl.target.project,
      pipeline_id: args.pipeline_id,
      jobs: items.map(jobOf),
      truncated,
    };
  },
});
