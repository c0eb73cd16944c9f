import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';
import { pollUntil } from '../forge/poll.js';
import { PIPELINE_ID } from './pipeline-get.js';
import { COMMON, gitlabClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Pipeline, type PipelineOut, pipelineOf } from './shapes.js';

const TERMINAL = new Set(['success', 'failed', 'canceled', 'skipped', 'manual']);

const input = RootObject({
  ...COMMON,
  pipeline_id: PIPELINE_ID,
  interval_secs: Type.Integer({ default: 15, minimum: 1, maximum: 3600, description: 'Seconds between polls' }),
  wait_timeout_secs: Type.Integer({ default: 1800, minimum: 1, maximum: 86400, description: 'Give up after this long' }),
  fail_on_failure: Type.Boolean({ default: false, description: 'Fail (GITLAB_PIPELINE_FAILED) when the pipeline ends without success' }),
});
const output = RootObject({
  command: Type.Literal('gitlab.pipeline.wait'),
  project: Type.String(),
  pipeline: Pipeline,
  completed: Type.Boolean(),
  polls: Type.Integer({ minimum: 1 }),
  waited_secs: Type.Integer({ minimum: 0 }),
});
type Output = Static<typeof output>;

export const pipelineWait = defineCommand({
  id: 'gitlab.pipeline.wait',
  title: 'Wait for a GitLab pipeline',
  description:
    'Poll a pipeline every interval_secs until it is success, failed, canceled, skipped or manual, at most wait_timeout_secs ' +
    'and never past the call deadline (GITLAB_WAIT_TIMEOUT when still running). Progress is reported per poll. With ' +
    'fail_on_failure, an end other than success is GITLAB_PIPELINE_FAILED.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['pipeline_id'] },
  examples: [{ description: 'Wait for pipeline 46', arguments: { pipeline_id: 46, fail_on_failure: true } }],
  render: (o: Output) => `pipeline ${o.pipeline.id}: ${o.pipeline.status} after ${o.waited_secs} s (${o.polls} polls)`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gl = await gitlabClient(args, ctx, 'gitlab.pipeline.wait');
    const result = await pollUntil<PipelineOut>(ctx, {
      intervalMs: args.interval_secs * 1000,
      waitTimeoutMs: args.wait_timeout_secs * 1000,
      poll: async () => pipelineOf(await gl.request<Record<string, any>>('GET', gl.projectPath(`/pipelines/${args.pipeline_id}`))),
      done: (p) => TERMINAL.has(p.status),
      describe: (p) => `pipeline ${p.id} is ${p.status}`,
    });
    if (!result.done) {
      throw new AhError({
        code: 'GITLAB_WAIT_TIMEOUT',
        message: `pipeline ${args.pipeline_id} is still ${result.value.status} after ${Math.round(result.waited_ms / 1000)} s`,
        hint: 'Wait again, raise wait_timeout_secs (and context.timeout_ms), or run the wait as a job (ah.job.start).',
        retryable: true,
        domain: 'gitlab',
        operation: 'gitlab.pipeline.wait',
      });
    }
    if (args.fail_on_failure && result.value.status !== 'success') {
      throw new AhError({
        code: 'GITLAB_PIPELINE_FAILED',
        message: `pipeline ${args.pipeline_id} ended '${result.value.status}'`,
        hint: 'Read the failing job with gitlab.pipeline.jobs, then gitlab.job.trace.',
        domain: 'gitlab',
        operation: 'gitlab.pipeline.wait',
      });
    }
    return {
      command: 'gitlab.pipeline.wait',
      project: gl.target.project,
      pipeline: result.value,
      completed: true,
      polls: result.polls,
      waited_secs: Math.round(result.waited_ms / 1000),
    };
  },
});
