import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { lineMatcher, WARNING_WORDS } from '../forge/logs.js';
import { ID } from './iid.js';
import { COMMON, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { MAX_BODY, renderTrace, searchTrace, TRACE_RESULT } from './trace-search.js';

const input = RootObject({ ...COMMON, job_id: ID('Job id'), max_body_bytes: MAX_BODY });
const output = RootObject({ command: Type.Literal('gitlab.job.warnings'), ...TRACE_RESULT });
type Output = Static<typeof output>;

export const jobWarnings = defineCommand({
  id: 'gitlab.job.warnings',
  title: 'Find warnings in a GitLab job log',
  description:
    "The lines of a job's trace that mention warning, deprecated, deprecation or will be removed (case-insensitive); bounds as gitlab.job.trace.",
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['job_id'] },
  examples: [{ description: 'Warnings of job 8', arguments: { job_id: 8 } }],
  render: (o: Output) => renderTrace(o),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    return { command: 'gitlab.job.warnings', ...(await searchTrace(args, ctx, 'gitlab.job.warnings', lineMatcher(WARNING_WORDS))) };
  },
});
