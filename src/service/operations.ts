/**
 * The lifecycle mutations: install, start, stop, restart, uninstall. Each runs under the per-user
 * lifecycle lock (one mutation at a time; a second one fails at once with MCP_SERVICE_BUSY) and
 * records its progress in lifecycle.json.
 */
import type { AhError } from '../errors.js';
import type { ServiceContext } from './context.js';
import { configurationId, endpointOf, type ServiceDefinition } from './definition.js';
import { serviceError } from './errors.js';
import { classify, observe } from './identity.js';
import { conflictError, driftFor, type Installed, loadInstalled, requireRegistered } from './installed.js';
import { type MutationOutput, running, STOPPED, type UninstallOutput } from './output.js';
import { driftOf } from './scheduler.js';
import { startInstance, stopInstance } from './start-stop.js';

/** Short wait: long enough to let a status probe's instant lock pass, far shorter than any mutation. */
const LOCK_WAIT_SECONDS = 0.3;

async function mutate<T>(ctx: ServiceContext, operation: string, fn: (record: () => Promise<void>) => Promise<T>): Promise<T> {
  const lock = await ctx.lock(ctx.store.lifecycleLockPath, LOCK_WAIT_SECONDS);
  if (!lock) {
    throw serviceError('MCP_SERVICE_BUSY', 'another managed-service command is running', {
      cause: `${ctx.store.lifecycleLockPath} is held`,
      hint: 'Retry when it has finished.',
      operation,
    });
  }
  const startedAt = new Date().toISOString();
  let recorded = false;
  const write = (state: 'in_progress' | 'completed' | 'failed', code: string | null = null) =>
    ctx.store.writeLifecycle({
      schema_version: 1,
      operation,
      state,
      pid: process.pid,
      started_at: startedAt,
      finished_at: state === 'in_progress' ? null : new Date().toISOString(),
      diagnostic_code: code,
    });
  const record = async () => {
    recorded = true;
    await write('in_progress');
  };
  try {
    const result = await fn(record);
    if (recorded) await write('completed');
    return result;
  } catch (error) {
    if (recorded) await write('failed', (error as AhError).code ?? 'INTERNAL_ERROR').catch(() => undefined);
    throw error;
  } finally {
    lock.release();
  }
}

function output(
  ctx: ServiceContext,
  command: MutationOutput['command'],
  installed: Installed,
  { changed, action, runtime }: Pick<MutationOutput, 'changed' | 'action' | 'runtime'>,
): MutationOutput {
  return {
    command,
    schema_version: 1,
    changed,
    action,
    service_id: ctx.serviceId,
    configuration_id: installed.configurationId,
    task_path: ctx.adapter.taskPath,
    endpoint: endpointOf(installed.definition),
    registration: { state: 'installed', enabled: true },
    runtime,
  };
}

export async function install(ctx: ServiceContext, definition: ServiceDefinition, noStart: boolean): Promise<MutationOutput> {
  const op = 'mcp.service.install';
  return mutate(ctx, op, async (record) => {
    const scheduler = await ctx.adapter.query();
    if (!scheduler.reachable) {
      throw serviceError('MCP_SERVICE_SCHEDULER_FAILED', `the service manager cannot be reached: ${scheduler.message}`, {
        cause: scheduler.message ?? undefined,
        hint: 'systemctl --user needs XDG_RUNTIME_DIR and a running user manager (a login session).',
        operation: op,
      });
    }
    const reg = await ctx.adapter.inspect();
    if (reg.state === 'present' && !reg.owned) throw conflictError(ctx, op);
    const id = configurationId(definition);
    const installed: Installed = { definition, configurationId: id };
    // current.json is a repairable index: an unreadable one is simply rewritten.
    const previous = await loadInstalled(ctx, op).catch(() => null);
    const runtime = await ctx.store.readRuntime();
    const canonical = reg.state === 'present' && driftOf(ctx.adapter.expectedProperties(definition), reg.properties).length === 0;
    // A previous install of this same id implies its definition file verified (loadInstalled checks it).
    const registrationChanged = !(canonical && previous?.configurationId === id);
    // The instance now running (if ours) is found on the port it recorded, which may differ.
    const runningPort = runtime.kind === 'ok' ? runtime.value.port : definition.port;
    const ours = await observe(ctx, runningPort);
    const oursKind = classify(ctx, ours, id);
    if (!noStart) {
      const target = runningPort === definition.port ? ours : await observe(ctx, definition.port);
      if (classify(ctx, target, id) === 'foreign' && !(runningPort === definition.port && oursKind === 'stale_config')) {
        throw serviceError('MCP_SERVICE_INSTALLATION_CONFLICT', `port ${definition.port} is already served by another process`, {
          cause: target.readiness.kind === 'ready' ? `it answers as pid ${target.readiness.pid}` : 'it is not an ah readiness endpoint',
          hint: 'Stop that server, or install with another --port. Nothing was registered.',
          operation: op,
        });
      }
    }
    await record();
    if (registrationChanged) {
      await ctx.store.writeDefinition(definition);
      await ctx.store.writeCurrent(ctx.serviceId, id);
      await ctx.adapter.register(definition);
    }
    const action = reg.state === 'missing' ? 'installed' : registrationChanged ? 'updated' : 'unchanged';
    if (noStart) {
      const live = (oursKind === 'exact' || oursKind === 'stale_config') && ours.runtime;
      return output(ctx, 'install', installed, { changed: registrationChanged, action, runtime: live ? running(live) : STOPPED });
    }
    const stoppedOld = oursKind === 'stale_config' && previous !== null;
    if (stoppedOld) await stopInstance(ctx, installed, await ctx.adapter.inspect(), op);
    const started = await startInstance(ctx, installed, op);
    const changed = registrationChanged || stoppedOld || started.action === 'started';
    return output(ctx, 'install', installed, { changed, action, runtime: running(started.runtime) });
  });
}

export async function start(ctx: ServiceContext): Promise<MutationOutput> {
  const op = 'mcp.service.start';
  return mutate(ctx, op, async (record) => {
    const { installed, reg } = await requireRegistered(ctx, op);
    const drift = driftFor(ctx, installed, reg);
    if (drift.length > 0) {
      throw serviceError('MCP_SERVICE_CONFIGURATION_DRIFT', 'the registration drifted from its definition; it is not started', {
        cause: drift.map((d) => d.field).join(', '),
        hint: 'Run `ah mcp service install` to restore it.',
        operation: op,
      });
    }
    await record();
    const { action, runtime } = await startInstance(ctx, installed, op);
    return output(ctx, 'start', installed, { changed: action === 'started', action, runtime: running(runtime) });
  });
}

export async function stop(ctx: ServiceContext): Promise<MutationOutput> {
  const op = 'mcp.service.stop';
  return mutate(ctx, op, async (record) => {
    const { installed, reg } = await requireRegistered(ctx, op);
    await record();
    const stopped = await stopInstance(ctx, installed, reg, op);
    return output(ctx, 'stop', installed, { changed: stopped.action !== 'already_stopped', action: stopped.action, runtime: STOPPED });
  });
}

export async function restart(ctx: ServiceContext): Promise<MutationOutput> {
  const op = 'mcp.service.restart';
  return mutate(ctx, op, async (record) => {
    const { installed, reg } = await requireRegistered(ctx, op);
    await record();
    const stopped = await stopInstance(ctx, installed, reg, op);
    try {
      const now = await requireRegistered(ctx, op);
      if (now.reg.fingerprint !== reg.fingerprint || driftFor(ctx, now.installed, now.reg).length > 0) {
        throw serviceError('MCP_SERVICE_TASK_CHANGED', 'the registration changed while restarting', { operation: op });
      }
      const started = await startInstance(ctx, now.installed, op);
      const action = stopped.action === 'already_stopped' ? 'started' : 'restarted';
      return output(ctx, 'restart', now.installed, { changed: true, action, runtime: running(started.runtime) });
    } catch (error) {
      const e = error as AhError;
      throw serviceError('MCP_SERVICE_RESTART_FAILED', 'the service was stopped but did not start again; the registration is kept', {
        cause: `${e.code ?? 'ERROR'}: ${e.message}${e.detail && e.detail !== e.message ? ` (${e.detail})` : ''}`,
        hint: 'Retry `ah mcp service restart` or `ah mcp service start`.',
        operation: op,
      });
    }
  });
}

export async function uninstall(ctx: ServiceContext): Promise<UninstallOutput> {
  const op = 'mcp.service.uninstall';
  return mutate(ctx, op, async () => {
    const reg = await ctx.adapter.inspect();
    if (reg.state === 'present' && !reg.owned) throw conflictError(ctx, op);
    const installed = await loadInstalled(ctx, op).catch(() => null);
    const [current, runtime, lifecycle] = await Promise.all([ctx.store.readCurrent(), ctx.store.readRuntime(), ctx.store.readLifecycle()]);
    const anything = reg.state === 'present' || [current, runtime, lifecycle].some((r) => r.kind !== 'missing');
    // Nothing to uninstall means no registration and no current.json: no service id is known.
    const result = (changed: boolean, action: UninstallOutput['action']): UninstallOutput => ({
      command: 'uninstall',
      schema_version: 1,
      changed,
      action,
      service_id: changed ? ctx.serviceId : null,
      configuration_id: installed?.configurationId ?? null,
      task_path: ctx.adapter.taskPath,
      endpoint: installed ? endpointOf(installed.definition) : null,
      registration: { state: 'not_installed', enabled: null },
      runtime: STOPPED,
    });
    if (!anything) return result(false, 'already_uninstalled');
    await stopInstance(ctx, installed, reg.state === 'present' ? reg : null, op);
    if (reg.state === 'present' && reg.fingerprint !== null) {
      try {
        await ctx.adapter.unregister(reg.fingerprint);
      } catch (error) {
        const e = error as AhError;
        if (e.code === 'MCP_SERVICE_TASK_CHANGED') throw error;
        throw incomplete(op, `${e.code ?? 'ERROR'}: ${e.message}`);
      }
    }
    const failures = await ctx.store.removeManagedFiles(ctx.serviceId);
    if (failures.length > 0) throw incomplete(op, failures.join('; '));
    return result(true, 'uninstalled');
  });
}

function incomplete(operation: string, cause: string) {
  return serviceError('MCP_SERVICE_UNINSTALL_INCOMPLETE', 'uninstall did not finish; run it again', {
    cause,
    hint: 'Run `ah mcp service uninstall` again once the cause is fixed.',
    operation,
  });
}
