/**
 * `status`: a read-only snapshot of every layer (registration, scheduler, runtime, readiness,
 * lifecycle, drift). It never repairs or starts anything; not installed, stopped, drifted and
 * manager errors are all valid snapshots.
 */
import type { ServiceContext } from './context.js';
import { endpointOf } from './definition.js';
import type { ServiceCode } from './errors.js';
import { classify, type Observation, observe } from './identity.js';
import { describeDrift, driftFor, loadInstalled } from './installed.js';
import type { DriftEntry, SchedulerInfo } from './scheduler.js';

type Code = ServiceCode | null;

interface StatusOutput {
  command: 'status';
  schema_version: 1;
  service_id: string;
  configuration_id: string | null;
  task_path: string;
  endpoint: string | null;
  registration: {
    state: 'not_installed' | 'installed' | 'drifted' | 'conflict' | 'invalid';
    diagnostic_code: Code;
    owned: boolean | null;
    enabled: boolean | null;
  };
  scheduler: {
    state: SchedulerInfo['state'] | 'unreachable';
    diagnostic_code: Code;
    message: string | null;
    main_pid: number | null;
    last_result: string | null;
    last_exit_code: number | null;
  };
  runtime: {
    state: 'running' | 'starting' | 'restart_required' | 'restart_backoff' | 'failed' | 'stopped';
    diagnostic_code: Code;
    pid: number | null;
    instance_id: string | null;
    configuration_id: string | null;
    version: string | null;
    started_at: string | null;
    last_exit_code: number | null;
    lease_held: boolean;
  };
  readiness: {
    state: 'ready' | 'not_ready' | 'mismatch' | 'not_checked';
    diagnostic_code: Code;
    port: number | null;
    pid: number | null;
    instance_id: string | null;
    version: string | null;
  };
  lifecycle: {
    state: 'idle' | 'busy' | 'interrupted' | 'invalid';
    diagnostic_code: Code;
    last_operation: string | null;
    last_result: string | null;
    last_diagnostic_code: string | null;
    updated_at: string | null;
  };
  drift: DriftEntry[];
}

export async function status(ctx: ServiceContext): Promise<StatusOutput> {
  const reg = await ctx.adapter.inspect();
  // An unreadable state reads as none installed; the registration then reports it invalid.
  const installed = await loadInstalled(ctx, 'mcp.service.status').catch(() => null);
  const runtimeRead = await ctx.store.readRuntime();
  const rt = runtimeRead.kind === 'ok' ? runtimeRead.value : null;
  const port = rt?.port ?? installed?.definition.port ?? null;
  const o: Observation | null = port !== null ? await observe(ctx, port) : null;
  const scheduler = o?.scheduler ?? (await ctx.adapter.query());
  const drift = installed && reg.owned ? driftFor(ctx, installed, reg) : [];
  const [lease, busy, lifecycleRead] = await Promise.all([
    ctx.leaseHeld(ctx.store.instanceLockPath),
    ctx.leaseHeld(ctx.store.lifecycleLockPath),
    ctx.store.readLifecycle(),
  ]);

  const registration: StatusOutput['registration'] =
    reg.state === 'missing'
      ? { state: 'not_installed', diagnostic_code: 'MCP_SERVICE_NOT_INSTALLED', owned: null, enabled: null }
      : !reg.owned
        ? { state: 'conflict', diagnostic_code: 'MCP_SERVICE_TASK_CONFLICT', owned: false, enabled: scheduler.enabled }
        : !installed
          ? { state: 'invalid', diagnostic_code: 'MCP_SERVICE_STATE_INVALID', owned: true, enabled: scheduler.enabled }
          : drift.length > 0
            ? { state: 'drifted', diagnostic_code: 'MCP_SERVICE_CONFIGURATION_DRIFT', owned: true, enabled: scheduler.enabled }
            : { state: 'installed', diagnostic_code: null, owned: true, enabled: scheduler.enabled };

  const kind = o ? classify(ctx, o, installed?.configurationId ?? null) : 'none';
  const answered = o?.readiness.kind === 'ready' ? o.readiness : null;
  // Anything answering that is not our proven instance is a mismatch.
  const proven = kind === 'exact' || kind === 'stale_config';
  const readiness: StatusOutput['readiness'] = {
    state: o === null ? 'not_checked' : proven ? 'ready' : kind === 'foreign' ? 'mismatch' : 'not_ready',
    diagnostic_code: kind === 'foreign' ? 'MCP_SERVICE_IDENTITY_MISMATCH' : null,
    port: o?.port ?? null,
    pid: answered?.pid ?? null,
    instance_id: answered?.instance_id ?? null,
    version: answered?.version ?? null,
  };

  const lastExit = rt?.exit?.code ?? (rt && !ctx.isAlive(rt.pid) ? (scheduler.last_exit_code ?? null) : null);
  const failedBefore = rt !== null && ((rt.exit !== null && rt.exit.code !== 0) || (rt.exit === null && !ctx.isAlive(rt.pid)));
  let runtimeState: StatusOutput['runtime']['state'];
  let runtimeCode: Code = null;
  if (kind === 'exact') runtimeState = 'running';
  else if (kind === 'stale_config') {
    runtimeState = 'restart_required';
    runtimeCode = 'MCP_SERVICE_RESTART_REQUIRED';
  } else if (
    // Between crash relaunches: systemd says so itself; on Windows the launcher keeps the task
    // running while it waits, so a running task with a failed, unleased server means the same.
    (scheduler.state === 'restart_pending' || (ctx.platform === 'win32' && scheduler.state === 'active')) &&
    failedBefore &&
    drift.length === 0 &&
    o?.readiness.kind !== 'ready' &&
    !lease
  ) {
    runtimeState = 'restart_backoff';
  } else if ((scheduler.state === 'active' || scheduler.state === 'activating') && o?.readiness.kind === 'none') runtimeState = 'starting';
  else if (scheduler.state === 'failed' || (failedBefore && scheduler.state !== 'active')) runtimeState = 'failed';
  else runtimeState = 'stopped';
  if (runtimeRead.kind === 'invalid') runtimeCode = 'MCP_SERVICE_STATE_INVALID';

  const life = lifecycleRead.kind === 'ok' ? lifecycleRead.value : null;
  const lifecycle: StatusOutput['lifecycle'] = {
    state: busy ? 'busy' : lifecycleRead.kind === 'invalid' ? 'invalid' : life?.state === 'in_progress' ? 'interrupted' : 'idle',
    diagnostic_code: busy ? 'MCP_SERVICE_BUSY' : lifecycleRead.kind === 'invalid' ? 'MCP_SERVICE_STATE_INVALID' : null,
    last_operation: life?.operation ?? null,
    last_result: life?.state ?? null,
    last_diagnostic_code: life?.diagnostic_code ?? null,
    updated_at: life ? (life.finished_at ?? life.started_at) : null,
  };

  return {
    command: 'status',
    schema_version: 1,
    service_id: ctx.serviceId,
    configuration_id: installed?.configurationId ?? null,
    task_path: ctx.adapter.taskPath,
    endpoint: installed ? endpointOf(installed.definition) : null,
    registration,
    scheduler: {
      state: scheduler.reachable ? scheduler.state : 'unreachable',
      diagnostic_code: scheduler.reachable ? null : 'MCP_SERVICE_SCHEDULER_FAILED',
      message: scheduler.message,
      main_pid: scheduler.main_pid,
      last_result: scheduler.last_result,
      last_exit_code: scheduler.last_exit_code,
    },
    runtime: {
      state: runtimeState,
      diagnostic_code: runtimeCode,
      pid: rt?.pid ?? null,
      instance_id: rt?.instance_id ?? null,
      configuration_id: rt?.configuration_id ?? null,
      version: rt?.version ?? null,
      started_at: rt?.started_at ?? null,
      last_exit_code: lastExit,
      lease_held: lease,
    },
    readiness,
    lifecycle,
    drift,
  };
}

export function statusText(s: StatusOutput): string {
  const tag = (code: Code) => (code ? ` [${code}]` : '');
  return [
    `managed MCP service ${s.service_id}${s.endpoint ? ` on ${s.endpoint}` : ''}`,
    `  registration: ${s.registration.state}${tag(s.registration.diagnostic_code)} (${s.task_path})`,
    `  scheduler:    ${s.scheduler.state}${tag(s.scheduler.diagnostic_code)}${s.scheduler.message ? `: ${s.scheduler.message}` : ''}`,
    `  runtime:      ${s.runtime.state}${tag(s.runtime.diagnostic_code)}${s.runtime.state === 'running' ? ` (pid ${s.runtime.pid}, instance ${s.runtime.instance_id})` : ''}`,
    `  readiness:    ${s.readiness.state}${tag(s.readiness.diagnostic_code)}`,
    `  lifecycle:    ${s.lifecycle.state}${tag(s.lifecycle.diagnostic_code)}${s.lifecycle.last_operation ? ` (last: ${s.lifecycle.last_operation} ${s.lifecycle.last_result})` : ''}`,
    ...s.drift.map((d) => `  drift: ${describeDrift([d])}`),
  ].join('\n');
}
