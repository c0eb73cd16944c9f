import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { lineMatcher } from '../forge/logs.js';
import { LOG_RESULT, renderMatches } from './log-output.js';
import { RUN_ID } from './run-id.js';
import { LOG_BOUNDS, searchRunLogs } from './run-log-search.js';
import { COMMON, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';

const input = RootObject({
  ...COMMON,
  run_id: RUN_ID,
  grep: Type.Optional(
    Type.String({ minLength: 1, maxLength: 256, description: 'Only lines containing this text (case-insensitive); default: every line' }),
  ),
  ...LOG_BOUNDS,
});
const output = RootObject({ command: Type.Literal('github.run.logs'), ...LOG_RESULT });
type Output = Static<typeof output>;

export const runLogs = defineCommand({
  id: 'github.run.logs',
  title: 'Search the logs of a GitHub Actions run',
  description:
    "Read a finished run's log archive (every job and step file) and return the lines containing grep, as {file, line, text} " +
    'with ANSI colours stripped. The limit (default 200) caps the matches; match_count counts them all. An unfinished or ' +
    'expired run is GITHUB_LOGS_UNAVAILABLE; an archive over max_body_bytes is GITHUB_RESPONSE_TOO_LARGE.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['run_id'] },
  examples: [{ description: 'Errors of run 30433642', arguments: { run_id: 30433642, grep: 'error' } }],
  render: (o: Output) => renderMatches(o),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const match = args.grep === undefined ? () => true : lineMatcher([args.grep]);
    const { repository, search } = await searchRunLogs(args, ctx, 'github.run.logs', match);
    return { command: 'github.run.logs', repository, run_id: args.run_id, ...search };
  },
});
