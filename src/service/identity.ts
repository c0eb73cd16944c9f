/**
 * Identity proof: a server counts as the managed instance only when its readiness (version, PID,
 * instance UUID) equals runtime.json, runtime.json records no exit, and, where the manager knows
 * it, the manager's main PID is that same PID. Anything else on the port is foreign.
 */
import type { ServiceContext } from './context.js';
import type { Readiness } from './probe.js';
import type { SchedulerInfo } from './scheduler.js';
import type { RuntimeRecord } from './state.js';

export interface Observation {
  port: number;
  readiness: Readiness;
  runtime: RuntimeRecord | null;
  scheduler: SchedulerInfo;
}

export async function observe(ctx: ServiceContext, port: number): Promise<Observation> {
  const [readiness, runtime, scheduler] = await Promise.all([ctx.probe(port), ctx.store.readRuntime(), ctx.adapter.query()]);
  return { port, readiness, runtime: runtime.kind === 'ok' ? runtime.value : null, scheduler };
}

/** True when the answering server is the instance runtime.json describes. */
export function provenInstance(ctx: ServiceContext, o: Observation): boolean {
  const r = o.readiness;
  const rt = o.runtime;
  if (r.kind !== 'ready' || !rt || rt.exit !== null) return false;
  if (r.pid !== rt.pid || r.instance_id !== rt.instance_id || r.version !== rt.version || rt.port !== o.port) return false;
  if (rt.service_id !== ctx.serviceId) return false;
  return !ctx.schedulerKnowsPid || o.scheduler.main_pid === rt.pid;
}

/** exact: our proven instance running the expected configuration; stale_config: ours, started from another one. */
export function classify(
  ctx: ServiceContext,
  o: Observation,
  configurationId: string | null,
): 'exact' | 'stale_config' | 'foreign' | 'none' {
  if (o.readiness.kind === 'none') return 'none';
  if (!provenInstance(ctx, o)) return 'foreign';
  return configurationId === null || o.runtime?.configuration_id === configurationId ? 'exact' : 'stale_config';
}

export function describeReadiness(o: Observation): string {
  const r = o.readiness;
  if (r.kind === 'none') return `nothing answers on 127.0.0.1:${o.port}`;
  if (r.kind === 'foreign') return `127.0.0.1:${o.port}: ${r.detail}`;
  const rt = o.runtime;
  const expected = rt ? `runtime.json names pid ${rt.pid}, instance ${rt.instance_id}` : 'runtime.json records no instance';
  const manager = o.scheduler.main_pid !== null ? `; the service manager's main pid is ${o.scheduler.main_pid}` : '';
  return `127.0.0.1:${o.port} answers as pid ${r.pid}, instance ${r.instance_id}, version ${r.version}; ${expected}${manager}`;
}
