import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { ID } from './iid.js';
import { COMMON, gitlabClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Pipeline, pipelineOf } from './shapes.js';

export const PIPELINE_ID = ID('Pipeline id');
const input = RootObject({ ...COMMON, pipeline_id: PIPELINE_ID });
const output = RootObject({ command: Type.Literal('gitlab.pipeline.get'), project: Type.String(), pipeline: Pipeline });
type Output = Static<typeof output>;

export const pipelineGet = defineCommand({
  id: 'gitlab.pipeline.get',
  title: 'Show a GitLab pipeline',
  description: 'One pipeline: status, ref, commit and URL.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['pipeline_id'] },
  examples: [{ description: 'Pipeline 46', arguments: { pipeline_id: 46 } }],
  render: (o: Output) => `${o.pipeline.id}: ${o.pipeline.status} on ${o.pipeline.ref ?? '-'} ${o.pipeline.web_url ?? ''}`.trimEnd(),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gl = await gitlabClient(args, ctx, 'gitlab.pipeline.get');
    const data = await gl.request<Record<string, any>>('GET', gl.projectPath(`/pipelines/${args.pipeline_id}`));
    return { command: 'gitlab.pipeline.get', project: gl.target.project, pipeline: pipelineOf(data) };
  },
});
