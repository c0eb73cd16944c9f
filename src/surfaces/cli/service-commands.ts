/**
 * `ah mcp service install|start|stop|restart|status|uninstall`: CLI-only host commands over
 * src/service. Mutations print schema v1 (or text); status prints a snapshot and exits 0 even
 * when the service is missing, stopped, drifted or the manager is unreachable.
 */
import type { Example } from '../../catalog/descriptor.js';
import { RootObject, Type } from '../../catalog/schema.js';
import { MAX_TIMEOUT_MS } from '../../runtime/context.js';
import type { HostCliCommand, HostCliEnv } from './host-command.js';
import { printResult } from './render.js';

type Verb = 'install' | 'start' | 'stop' | 'restart' | 'status' | 'uninstall';

const DESCRIPTIONS: Record<Verb, string> = {
  install: 'Register the managed per-user MCP HTTP service (systemd user unit / Task Scheduler task) and wait for exact readiness.',
  start: 'Start the registered managed MCP service and wait (at most 15 s) for readiness of the exact instance.',
  stop: 'Stop the managed MCP service after proving its identity (control shutdown first, then the service manager).',
  restart: 'Stop the managed MCP service with identity proof and start a new instance.',
  status: 'Show registration, service manager, runtime, readiness, lifecycle and drift of the managed MCP service; never repairs.',
  uninstall: 'Stop the exact managed instance and remove its registration and lifecycle state (idempotent).',
};

async function runVerb(verb: Verb, input: Record<string, unknown>, env: HostCliEnv): Promise<number> {
  const { serviceContext, definitionFor } = await import('../../service/select.js');
  const ops = await import('../../service/operations.js');
  const { mutationText } = await import('../../service/output.js');
  const ctx = await serviceContext(env.env, env.version, `mcp.service.${verb}`);
  switch (verb) {
    case 'install': {
      const definition = definitionFor(ctx, {
        cwd: env.explicitCwd ? env.cwd : null,
        limit: env.limit,
        port: input.port as number | undefined,
        max_active: input.max_active as number | undefined,
        default_timeout_ms: input.default_timeout_ms as number | undefined,
        configDir: env.configDir,
        // The running ah and node become the service's programs.
        ahPath: process.argv[1] ?? '',
        nodePath: process.execPath,
      });
      const result = await ops.install(ctx, definition, input.no_start === true);
      return printResult(env, result, mutationText(result));
    }
    case 'status': {
      const { status, statusText } = await import('../../service/status.js');
      const result = await status(ctx);
      return printResult(env, result, statusText(result));
    }
    default: {
      const result = await ops[verb](ctx);
      return printResult(env, result, mutationText(result));
    }
  }
}

function command(verb: Verb, inputSchema: ReturnType<typeof RootObject>, examples: readonly Example[]): HostCliCommand {
  return {
    id: `mcp.service.${verb}`,
    title: `Managed MCP service: ${verb}`,
    description: DESCRIPTIONS[verb],
    inputSchema,
    examples,
    run: (input, env) => runVerb(verb, input, env),
  };
}

const installSchema = RootObject({
  port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'HTTP port on 127.0.0.1 (default 8787)' })),
  max_active: Type.Optional(Type.Integer({ minimum: 1, description: 'Execution slots (default 32)' })),
  default_timeout_ms: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_TIMEOUT_MS, description: 'Timeout for calls without context.timeout_ms (default 300000)' }),
  ),
  no_start: Type.Optional(Type.Boolean({ description: 'Register or reconcile only; start or stop no process' })),
});

export const SERVICE_CLI_COMMANDS: readonly HostCliCommand[] = [
  command('install', installSchema, [
    { description: 'Install on the default port and wait for readiness', arguments: {} },
    { description: 'Register on port 9000 without starting', arguments: { port: 9000, no_start: true } },
  ]),
  command('start', RootObject({}), [{ description: 'Start the registered service', arguments: {} }]),
  command('stop', RootObject({}), [{ description: 'Stop the managed instance safely', arguments: {} }]),
  command('restart', RootObject({}), [{ description: 'Restart with a new instance', arguments: {} }]),
  command('status', RootObject({}), [{ description: 'Inspect every layer', arguments: {} }]),
  command('uninstall', RootObject({}), [{ description: 'Remove the registration and lifecycle state', arguments: {} }]),
];
