/**
 * The two halves every mutation is built from: start (wait for exact readiness of a new instance)
 * and stop (prove identity, control shutdown, then only a revalidated manager stop).
 */
import type { ServiceContext } from './context.js';
import { serviceError } from './errors.js';
import { classify, describeReadiness, type Observation, observe, provenInstance } from './identity.js';
import { describeDrift, driftFor, type Installed } from './installed.js';
import type { RegistrationInfo } from './scheduler.js';
import type { RuntimeRecord } from './state.js';

async function waitUntil(ctx: ServiceContext, deadline: number, test: () => Promise<boolean> | boolean): Promise<boolean> {
  for (;;) {
    if (await test()) return true;
    if (ctx.now() >= deadline) return false;
    await ctx.sleep(Math.min(ctx.timing.pollMs, Math.max(1, deadline - ctx.now())));
  }
}

export async function startInstance(
  ctx: ServiceContext,
  installed: Installed,
  operation: string,
): Promise<{ action: 'started' | 'already_running'; runtime: RuntimeRecord }> {
  const deadline = ctx.now() + ctx.timing.startMs;
  const { definition, configurationId } = installed;
  const before = await observe(ctx, definition.port);
  const kind = classify(ctx, before, configurationId);
  if (kind === 'exact' && before.runtime) return { action: 'already_running', runtime: before.runtime };
  if (kind === 'stale_config') {
    throw serviceError('MCP_SERVICE_RESTART_REQUIRED', 'the running managed server was started from an older definition', {
      cause: `it runs configuration ${before.runtime?.configuration_id}; the installed one is ${configurationId}`,
      hint: 'Run `ah mcp service restart` to apply the installed definition.',
      operation,
    });
  }
  if (kind === 'foreign') {
    throw serviceError(
      'MCP_SERVICE_IDENTITY_MISMATCH',
      `another server answers on port ${definition.port}; it was not adopted or stopped`,
      {
        cause: describeReadiness(before),
        hint: 'Stop that server yourself, or install the service with another --port.',
        operation,
      },
    );
  }
  const missing = [definition.node_path, definition.ah_path].filter((p) => !ctx.fileExists(p));
  if (missing.length > 0) {
    throw serviceError('MCP_SERVICE_WORKER_MISSING', `the service's program is missing: ${missing.join(', ')}`, {
      hint: 'Reinstall ah, then run `ah mcp service install` from the installed copy.',
      operation,
    });
  }
  const previous = before.runtime?.instance_id ?? null;
  await ctx.adapter.start();
  let last: Observation | undefined;
  const ready = await waitUntil(ctx, deadline, async () => {
    const rt = await ctx.store.readRuntime();
    if (rt.kind !== 'ok' || rt.value.instance_id === previous || rt.value.exit !== null || rt.value.ready_at === null) return false;
    if (rt.value.configuration_id !== configurationId) return false;
    last = await observe(ctx, definition.port);
    return classify(ctx, last, configurationId) === 'exact';
  });
  if (!ready || !last?.runtime) {
    const rt = await ctx.store.readRuntime();
    const exit = rt.kind === 'ok' && rt.value.exit ? `; the last managed run exited ${rt.value.exit.code}: ${rt.value.exit.reason}` : '';
    throw serviceError('MCP_SERVICE_START_TIMEOUT', `no exact readiness within ${ctx.timing.startMs} ms`, {
      cause: `${last ? describeReadiness(last) : 'no new instance recorded its readiness'}${exit}`,
      hint: 'Run `ah mcp service status` to see each layer.',
      operation,
    });
  }
  return { action: 'started', runtime: last.runtime };
}

interface StopResult {
  action: 'stopped' | 'already_stopped' | 'forced_stopped';
  /** The instance that was stopped (null when nothing ran). */
  runtime: RuntimeRecord | null;
}

function unsafe(operation: string, message: string, cause: string) {
  return serviceError('MCP_SERVICE_STOP_UNSAFE', message, {
    cause,
    hint: 'Nothing was stopped. Run `ah mcp service status` to see why.',
    operation,
  });
}

/**
 * Stops the exact managed instance. `reg` null means there is no owned registration: then only
 * an exact orphan may be shut down through its control route, never through the manager.
 */
export async function stopInstance(
  ctx: ServiceContext,
  installed: Installed | null,
  reg: RegistrationInfo | null,
  operation: string,
): Promise<StopResult> {
  const deadline = ctx.now() + ctx.timing.stopDeadlineMs;
  if (installed && reg) {
    const drift = driftFor(ctx, installed, reg);
    if (drift.length > 0) throw unsafe(operation, 'the registration drifted from its definition; it is not stopped', describeDrift(drift));
  }
  const runtime = await ctx.store.readRuntime();
  const port = runtime.kind === 'ok' ? runtime.value.port : (installed?.definition.port ?? 0);
  const o = port > 0 ? await observe(ctx, port) : null;
  if (!o || classify(ctx, o, null) === 'none') return stopWithoutReadiness(ctx, o, reg, operation, deadline);
  if (!provenInstance(ctx, o) || !o.runtime) {
    // Durable state says none of ours runs: the answering server is someone else's; leave it be.
    const rt = o.runtime;
    const oursLive = rt !== null && rt.exit === null && ctx.isAlive(rt.pid);
    if (!oursLive && o.scheduler.main_pid === null) return stopWithoutReadiness(ctx, o, reg, operation, deadline);
    throw unsafe(operation, `the server on port ${port} is not the proven managed instance`, describeReadiness(o));
  }
  const { pid, instance_id: id } = o.runtime;
  // Readiness was read just now, so a restarted process is never stopped by a stale request.
  const status = await ctx.shutdown(port, id);
  const graceEnd = Math.min(deadline, ctx.now() + ctx.timing.stopGraceMs);
  if (status === 202 && (await waitGone(ctx, pid, graceEnd))) return { action: 'stopped', runtime: o.runtime };
  if (!reg) {
    if (await waitGone(ctx, pid, deadline)) return { action: 'stopped', runtime: o.runtime };
    throw serviceError('MCP_SERVICE_STOP_TIMEOUT', `the orphaned managed server (pid ${pid}) did not stop`, {
      cause: 'there is no registration to stop it through, and the control shutdown did not finish',
      operation,
    });
  }
  // Revalidate ownership immediately before asking the manager.
  const again = await ctx.adapter.inspect();
  if (again.fingerprint !== reg.fingerprint || !again.owned) {
    throw serviceError('MCP_SERVICE_TASK_CHANGED', 'the registration changed during stop; the manager was not asked to stop it', {
      operation,
    });
  }
  const now = await ctx.adapter.query();
  if (ctx.schedulerKnowsPid && now.main_pid !== pid) {
    if (!ctx.isAlive(pid)) return { action: 'stopped', runtime: o.runtime };
    throw unsafe(operation, `the service manager no longer runs pid ${pid}`, `its main pid is ${now.main_pid ?? 'none'}`);
  }
  await ctx.adapter.stop();
  if (await waitGone(ctx, pid, deadline)) return { action: 'forced_stopped', runtime: o.runtime };
  throw serviceError('MCP_SERVICE_STOP_TIMEOUT', `the managed server (pid ${pid}) did not stop within ${ctx.timing.stopDeadlineMs} ms`, {
    cause: `control shutdown answered ${status || 'nothing'}; the service manager stop did not finish in time`,
    hint: 'Retry `ah mcp service stop`; check the process with `ah mcp service status`.',
    operation,
  });
}

/** Nothing answers: stop only a queued, process-free relaunch; a process that does not answer is ambiguous. */
async function stopWithoutReadiness(
  ctx: ServiceContext,
  o: Observation | null,
  reg: RegistrationInfo | null,
  operation: string,
  deadline: number,
): Promise<StopResult> {
  const scheduler = o?.scheduler ?? (await ctx.adapter.query());
  if (scheduler.main_pid !== null && ctx.isAlive(scheduler.main_pid)) {
    throw unsafe(
      operation,
      `the managed service runs pid ${scheduler.main_pid} but it does not answer readiness`,
      'an unproven instance is never stopped; retry once it is ready',
    );
  }
  const pending = scheduler.state === 'restart_pending' || scheduler.state === 'activating';
  if (pending && reg?.owned && !(await ctx.leaseHeld(ctx.store.instanceLockPath))) {
    await ctx.adapter.stop();
    await waitUntil(ctx, deadline, async () => {
      const s = await ctx.adapter.query();
      return s.state !== 'restart_pending' && s.state !== 'activating';
    });
    return { action: 'stopped', runtime: null };
  }
  return { action: 'already_stopped', runtime: null };
}

async function waitGone(ctx: ServiceContext, pid: number, until: number): Promise<boolean> {
  return waitUntil(ctx, until, () => !ctx.isAlive(pid));
}
