/**
 * The `managed` transport: the agent gets the endpoint of ah's own per-user service (systemd user
 * unit / Task Scheduler task). Choosing it is the request to make that service run: a missing
 * service is installed, a stopped one started; a drifted or conflicting one is reported, never
 * repaired behind the user's back (`ah mcp service install` does that).
 */
import { AhError } from '../errors.js';
import type { Env } from '../platform/paths.js';
import type { ManagedServiceReport } from './types.js';

export interface ManagedInput {
  env: Env;
  version: string;
  configDir: string;
  script: string;
  node: string;
}

/** The live state as the interactive transport menu shows it. */
export type ManagedState = 'running' | 'stopped' | 'not_installed' | 'unusable';

export interface ManagedPlan {
  state: ManagedState;
  endpoint: string;
  /** What a real run does first (empty when it is already running). */
  todo: 'none' | 'start' | 'install';
}

function unhealthy(message: string, cause?: string): AhError {
  return new AhError({
    code: 'AI_MANAGED_NOT_HEALTHY',
    message,
    cause,
    hint: "Look at 'ah mcp service status' and repair with 'ah mcp service install' (or use --transport stdio).",
    operation: 'ai.install',
  });
}

async function context(input: ManagedInput) {
  const { serviceContext } = await import('../service/select.js');
  try {
    return await serviceContext(input.env, input.version, 'ai.install');
  } catch (error) {
    if (error instanceof AhError && error.code === 'MCP_SERVICE_UNSUPPORTED_PLATFORM') {
      throw new AhError({
        code: 'AI_MANAGED_UNSUPPORTED',
        message: `the managed transport needs the managed service, which is not available on ${process.platform}`,
        hint: 'Use --transport stdio, or run `ah mcp serve --transport http` yourself and use --transport http.',
        operation: 'ai.install',
      });
    }
    throw error;
  }
}

function definition(ctx: Awaited<ReturnType<typeof context>>, input: ManagedInput, select: typeof import('../service/select.js')) {
  return select.definitionFor(ctx, {
    cwd: null,
    limit: null,
    configDir: input.configDir,
    ahPath: input.script,
    nodePath: input.node,
  });
}

/** Read-only: what the managed service looks like now and what install would do. */
export async function planManaged(input: ManagedInput): Promise<ManagedPlan> {
  const ctx = await context(input);
  const { status } = await import('../service/status.js');
  const select = await import('../service/select.js');
  const { endpointOf } = await import('../service/definition.js');
  const s = await status(ctx);
  if (s.registration.state === 'not_installed') {
    return { state: 'not_installed', endpoint: endpointOf(definition(ctx, input, select)), todo: 'install' };
  }
  if (s.registration.state !== 'installed' || s.endpoint === null) {
    return { state: 'unusable', endpoint: s.endpoint ?? '', todo: 'none' };
  }
  if (s.readiness.state === 'ready') return { state: 'running', endpoint: s.endpoint, todo: 'none' };
  return { state: 'stopped', endpoint: s.endpoint, todo: 'start' };
}

/** Makes the service run (install or start as planned); returns the report part. */
export async function ensureManaged(input: ManagedInput, plan: ManagedPlan): Promise<ManagedServiceReport> {
  if (plan.state === 'unusable') {
    throw unhealthy('the managed MCP service is drifted, in conflict or its state is invalid', "see 'ah mcp service status'");
  }
  if (plan.todo === 'none') return { action: 'already_running', endpoint: plan.endpoint };
  const ctx = await context(input);
  const ops = await import('../service/operations.js');
  try {
    if (plan.todo === 'start') {
      const r = await ops.start(ctx);
      return { action: 'started', endpoint: r.endpoint };
    }
    const select = await import('../service/select.js');
    const r = await ops.install(ctx, definition(ctx, input, select), false);
    return { action: 'installed', endpoint: r.endpoint };
  } catch (error) {
    if (error instanceof AhError && error.code.startsWith('MCP_SERVICE_')) {
      throw unhealthy(
        `the managed MCP service could not be ${plan.todo === 'start' ? 'started' : 'installed'}: ${error.message}`,
        error.code,
      );
    }
    throw error;
  }
}
