import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { lineMatcher } from '../forge/logs.js';
import { ID } from './iid.js';
import { COMMON, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { MAX_BODY, renderTrace, searchTrace, TRACE_RESULT } from './trace-search.js';

const input = RootObject({
  ...COMMON,
  job_id: ID('Job id'),
  grep: Type.Optional(
    Type.String({ minLength: 1, maxLength: 256, description: 'Only lines containing this text (case-insensitive); default: every line' }),
  ),
  max_body_bytes: MAX_BODY,
});
const output = RootObject({ command: Type.Literal('gitlab.job.trace'), ...TRACE_RESULT });
type Output = Static<typeof output>;

export const jobTrace = defineCommand({
  id: 'gitlab.job.trace',
  title: 'Search the log of a GitLab job',
  description:
    "Read a job's trace (its console log) and return the lines containing grep as {line, text}, ANSI colours stripped. The limit " +
    '(default 200) caps the matches; match_count counts them all; a trace over max_body_bytes is GITLAB_RESPONSE_TOO_LARGE.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['job_id'] },
  examples: [{ description: 'Errors of job 8', arguments: { job_id: 8, grep: 'error' } }],
  render: (o: Output) => renderTrace(o),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const match = args.grep === undefined ? () => true : lineMatcher([args.grep]);
    return { command: 'gitlab.job.trace', ...(await searchTrace(args, ctx, 'gitlab.job.trace', match)) };
  },
});
