/**
 * `ah postgres tool …`: the reference manages a psql binary (status, download, use, cleanup).
 * ah speaks the PostgreSQL protocol itself, so there is nothing to manage; this command exists
 * so that a user or agent who knows those commands gets a clear answer instead of "unknown
 * command". It always fails with POSTGRES_TOOL_NOT_NEEDED and changes nothing.
 */
import { defineCommand } from '../../../catalog/descriptor.js';
import { AhError } from '../../../errors.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';

const input = RootObject({
  args: Type.Array(Type.String({ maxLength: 4096 }), {
    default: [],
    maxItems: 64,
    description: 'Ignored: whatever followed `ah postgres tool` (status, download, use, cleanup …)',
  }),
});
const output = RootObject({ command: Type.Literal('postgres.tool') });

export const tool = defineCommand({
  id: 'postgres.tool',
  title: 'psql management (not needed)',
  description:
    'Not needed: ah connects to PostgreSQL directly through its own driver, so there is no psql binary to find, download, pin or clean up. Always fails with POSTGRES_TOOL_NOT_NEEDED; call the postgres commands (ping, query, …) directly.',
  inputSchema: input,
  outputSchema: output,
  effects: {
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    effects: [],
    risk: 'low',
    impact: 'Changes nothing; it only explains that no psql is needed.',
    reversibility: 'yes',
  },
  cli: { rest: 'args' },
  stateless: true,
  examples: [{ description: 'What the reference called tool status', arguments: { args: ['status'] } }],
  async run(args: Static<typeof input>): Promise<Static<typeof output>> {
    const sub = args.args[0];
    throw new AhError({
      code: 'POSTGRES_TOOL_NOT_NEEDED',
      message: 'not needed: ah connects directly (no psql to manage)',
      cause: `${sub ? `'postgres tool ${sub}' manages` : "'postgres tool' commands manage"} a psql binary; ah speaks the PostgreSQL protocol itself through its bundled driver`,
      hint: "Run the postgres commands directly, e.g. 'ah postgres ping --host HOST --user USER'.",
      domain: 'postgres',
      operation: 'postgres.tool',
      exitCodeHint: 2,
    });
  },
});
