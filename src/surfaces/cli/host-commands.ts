/** CLI-only host commands (not typed catalog tools): they are parsed like catalog commands. */
import type { CliHints, Example } from '../../catalog/descriptor.js';
import { RootObject, type TSchema, Type } from '../../catalog/schema.js';
import type { EventLog } from '../../logging/types.js';
import type { Env } from '../../platform/paths.js';
import type { LiveCatalog } from '../../runtime/live-catalog.js';
import { SERVICE_CLI_COMMANDS } from './service-commands.js';
import { SECRETS_CLI_COMMANDS } from './secrets-commands.js';

export interface HostCliEnv {
  /** Absolute base directory (process cwd or --cwd). */
  cwd: string;
  /** Whether --cwd was given explicitly. */
  explicitCwd: boolean;
  limit: number | null;
  quiet: boolean;
  json: boolean;
  env: Env;
  configDir: string;
  catalog: LiveCatalog;
  log: EventLog;
  /** External-plugin warnings from start-up (the MCP server logs them). */
  version: string;
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

const mcpServe: HostCliCommand = {
  id: 'mcp.serve',
  title: 'Serve MCP',
  description: 'Serve every enabled command as an MCP tool over stdio (default) or local Streamable HTTP on 127.0.0.1.',
  inputSchema: RootObject({
    transport: Type.Union([Type.Literal('stdio'), Type.Literal('http')], { default: 'stdio', description: 'stdio or http' }),
    port: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 65535, description: 'HTTP port (HTTP only; default 8787; 0 picks a free port)' }),
    ),
    max_active: Type.Integer({ minimum: 1, default: 32, description: 'Execution slots shared by direct calls and jobs' }),
    default_timeout_ms: Type.Integer({ minimum: 1, default: 300000, description: 'Timeout for calls without context.timeout_ms' }),
  }),
  examples: [
    { description: 'Serve over stdio for an agent that starts ah itself', arguments: {} },
    { description: 'Serve over local HTTP on port 8787', arguments: { transport: 'http', port: 8787 } },
  ],
  rejectJson: 'mcp serve does not take --json: stdout carries MCP messages (stdio) or the server runs in the foreground (http)',
  removedFlags: {
    'max-queued': '--max-queued was removed: there is no queue any more; use --max-active to set the number of execution slots',
  },
  async run(input, env) {
    const { serveFromCli } = await import('../mcp/serve.js');
    return serveFromCli(input, env);
  },
};

export const HOST_CLI_COMMANDS: readonly HostCliCommand[] = [mcpServe, ...SERVICE_CLI_COMMANDS, ...SECRETS_CLI_COMMANDS];
