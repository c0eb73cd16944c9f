/** Picks the platform's service manager and builds the live context and definitions. */
import { realpathSync } from 'node:fs';
import { runProcess } from '../platform/exec.js';
import { type Env, stateRoot } from '../platform/paths.js';
import { internalKnob, liveContext, type ServiceContext } from './context.js';
import {
  DEFAULT_MAX_ACTIVE,
  DEFAULT_PORT,
  DEFAULT_RESTART_DELAY_SEC,
  DEFAULT_TIMEOUT_MS,
  type ServiceDefinition,
  serviceIdFor,
} from './definition.js';
import { serviceError } from './errors.js';
import { SystemdAdapter } from './linux/systemd.js';
import type { Runner } from './scheduler.js';
import { StateStore } from './state.js';
import { currentUserSid, TaskSchedulerAdapter } from './windows/task-scheduler.js';

function execRunner(env: Env, cwd: string): Runner {
  return async (program, args) => {
    const r = await runProcess(program, args, { cwd, env, maxBytes: 1024 * 1024 });
    if (r.kind === 'exited') return { kind: 'exited', code: r.code, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
    if (r.kind === 'missing') return { kind: 'missing', message: `${program} was not found on PATH` };
    return { kind: 'failed', message: r.kind === 'failed' ? r.message : `${program} was interrupted` };
  };
}

export async function serviceContext(
  env: Env,
  version: string,
  operation: string,
  options: { platform?: NodeJS.Platform; runner?: Runner } = {},
): Promise<ServiceContext> {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux' && platform !== 'win32') {
    throw serviceError('MCP_SERVICE_UNSUPPORTED_PLATFORM', `the managed MCP service is not available on ${platform}`, {
      hint: 'Run the server by hand: `ah mcp serve --transport http`.',
      operation,
    });
  }
  const stateDir = stateRoot(env, platform);
  const serviceId = serviceIdFor(platform, stateDir);
  const runner = options.runner ?? execRunner(env, platform === 'win32' ? (env.SystemRoot ?? 'C:\\Windows') : '/');
  const adapter =
    platform === 'linux'
      ? new SystemdAdapter(runner, env, serviceId, stateDir)
      : new TaskSchedulerAdapter(runner, await currentUserSid(runner), serviceId, stateDir, env.SystemRoot ?? 'C:\\Windows');
  return liveContext({ adapter, store: new StateStore(stateDir), serviceId, platform, env, version });
}

interface InstallInput {
  cwd: string | null;
  limit: number | null;
  port?: number;
  max_active?: number;
  default_timeout_ms?: number;
  configDir: string;
  ahPath: string;
  nodePath: string;
}

/** The definition an install asks for; paths are resolved to real absolute paths. */
export function definitionFor(ctx: ServiceContext, input: InstallInput): ServiceDefinition {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return {
    schema_version: 1,
    service_id: ctx.serviceId,
    platform: ctx.platform,
    cwd: input.cwd,
    limit: input.limit,
    port: input.port ?? DEFAULT_PORT,
    max_active: input.max_active ?? DEFAULT_MAX_ACTIVE,
    default_timeout_ms: input.default_timeout_ms ?? DEFAULT_TIMEOUT_MS,
    config_dir: input.configDir,
    ah_path: real(input.ahPath),
    node_path: real(input.nodePath),
    // Test-only knob: shortens the relaunch spacing so the crash-loop tests stay fast.
    restart_delay_sec: internalKnob(ctx.env, 'AH_INTERNAL_SERVICE_RESTART_SEC', DEFAULT_RESTART_DELAY_SEC),
  };
}
