/** Every CLI-only host command: `mcp serve`, `mcp service …`, `secrets …`, `ai install|uninstall|status`. */
import { RootObject, Type } from '../../catalog/schema.js';
import { MAX_TIMEOUT_MS } from '../../runtime/context.js';
import { AI_CLI_COMMANDS } from './ai-commands.js';
import type { HostCliCommand } from './host-command.js';
import { SERVICE_CLI_COMMANDS } from './service-commands.js';
import { SECRETS_CLI_COMMANDS } from './secrets-commands.js';

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
    default_timeout_ms: Type.Integer({
      minimum: 1,
      maximum: MAX_TIMEOUT_MS,
      default: 300000,
      description: 'Timeout for calls without context.timeout_ms',
    }),
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
    const { serve } = await import('../mcp/serve.js');
    return serve(input, env);
  },
};

export const HOST_CLI_COMMANDS: readonly HostCliCommand[] = [
  mcpServe,
  ...SERVICE_CLI_COMMANDS,
  ...SECRETS_CLI_COMMANDS,
  ...AI_CLI_COMMANDS,
];
