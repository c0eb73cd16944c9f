/** The shape of a CLI-only host command (not a typed catalog tool); parsed like catalog commands. */
import type { CliHints, Example } from '../../catalog/descriptor.js';
import type { TSchema } from '../../catalog/schema.js';
import type { Host } from '../../runtime/host.js';

/** The host, plus how the CLI was asked to print. */
export interface HostCliEnv extends Host {
  quiet: boolean;
  json: boolean;
}

export interface HostCliCommand {
  id: string;
  title: string;
  description: string;
  inputSchema: TSchema;
  cli?: CliHints;
  examples: readonly Example[];
  /** When set, `--json` is refused with this reason. */
  rejectJson?: string;
  /** Removed flags (without `--`) → the migration message. */
  removedFlags?: Readonly<Record<string, string>>;
  /** Runs the command; resolves to the process exit code. */
  run(input: Record<string, unknown>, env: HostCliEnv): Promise<number>;
}
