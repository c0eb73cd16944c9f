import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { lineMatcher, WARNING_WORDS } from '../forge/logs.js';
import { LOG_RESULT, renderMatches } from './log-output.js';
import { RUN_ID } from './run-id.js';
import { LOG_BOUNDS, searchRunLogs } from './run-log-search.js';
import { COMMON, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';

const input = RootObject({ ...COMMON, run_id: RUN_ID, ...LOG_BOUNDS });
const output = RootObject({ command: Type.Literal('github.run.warnings'), ...LOG_RESULT });
type Output = Static<typeof output>;

export const runWarnings = defineCommand({
  id: 'github.run.warnings',
  title: 'Find warnings in a GitHub Actions run',
  description:
    "The lines of a finished run's logs that mention warning, deprecated, deprecation or will be removed (case-insensitive), " +
    'as {file, line, text}; the same bounds and errors as github.run.logs.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['run_id'] },
  examples: [{ description: 'Warnings of run 30433642', arguments: { run_id: 30433642 } }],
  render: (o: Output) => renderMatches(o),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const { repository, search } = await searchRunLogs(args, ctx, 'github.run.warnings', lineMatcher(WARNING_WORDS));
    return { command: 'github.run.warnings', repository, run_id: args.run_id, ...search };
  },
});
