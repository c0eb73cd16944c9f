import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';
import { pollUntil } from '../forge/poll.js';
import { RUN_ID } from './run-id.js';
import { COMMON, githubClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Run, type RunOut, runOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  run_id: RUN_ID,
  interval_secs: Type.Integer({ default: 15, minimum: 1, maximum: 3600, description: 'Seconds between polls' }),
  wait_timeout_secs: Type.Integer({ default: 1800, minimum: 1, maximum: 86400, description: 'Give up after this long' }),
  fail_on_failure: Type.Boolean({ default: false, description: 'Fail (GITHUB_RUN_FAILED) when the run ends without success' }),
});
const output = RootObject({
  command: Type.Literal('github.run.wait'),
  repository: Type.String(),
  run: Run,
  completed: Type.Boolean(),
  polls: Type.Integer({ minimum: 1 }),
  waited_secs: Type.Integer({ minimum: 0 }),
});
type Output = Static<typeof output>;

export const runWait = defineCommand({
  id: 'github.run.wait',
  title: 'Wait for a GitHub Actions run',
  description:
    'Poll a run every interval_secs until it completes, at most wait_timeout_secs and never past the call deadline ' +
    '(GITHUB_WAIT_TIMEOUT when it is still running). Progress is reported per poll. With fail_on_failure, a run that ' +
    'completes without success is GITHUB_RUN_FAILED. Long waits suit ah.job.start.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['run_id'] },
  examples: [{ description: 'Wait for run 30433642, failing if it fails', arguments: { run_id: 30433642, fail_on_failure: true } }],
  render: (o: Output) => `run ${o.run.id}: ${o.run.status ?? '-'}/${o.run.conclusion ?? '-'} after ${o.waited_secs} s (${o.polls} polls)`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gh = await githubClient(args, ctx, 'github.run.wait');
    const result = await pollUntil<RunOut>(ctx, {
      intervalMs: args.interval_secs * 1000,
      waitTimeoutMs: args.wait_timeout_secs * 1000,
      poll: async () =>
        runOf((await gh.request<Record<string, any>>('GET /repos/{owner}/{repo}/actions/runs/{run_id}', { run_id: args.run_id })).data),
      done: (run) => run.status === 'completed',
      describe: (run) => `run ${run.id} is ${run.status ?? 'unknown'}`,
    });
    const repository = `${gh.target.owner}/${gh.target.name}`;
    if (!result.done) {
      throw new AhError({
        code: 'GITHUB_WAIT_TIMEOUT',
        message: `run ${args.run_id} is still ${result.value.status ?? 'running'} after ${Math.round(result.waited_ms / 1000)} s`,
        hint: 'Wait again, raise wait_timeout_secs (and context.timeout_ms), or run the wait as a job (ah.job.start).',
        retryable: true,
        domain: 'github',
        operation: 'github.run.wait',
      });
    }
    if (args.fail_on_failure && result.value.conclusion !== 'success') {
      throw new AhError({
        code: 'GITHUB_RUN_FAILED',
        message: `run ${args.run_id} completed with conclusion '${result.value.conclusion ?? 'none'}'`,
        hint: 'Read its failures with github.run.logs (grep "error") or github.run.jobs.',
        domain: 'github',
        operation: 'github.run.wait',
      });
    }
    return {
      command: 'github.run.wait',
      repository,
      run: result.value,
      completed: true,
      polls: result.polls,
      waited_secs: Math.round(result.waited_ms / 1000),
    };
  },
});
