/**
 * Everything a lifecycle operation touches, injected so the algorithms can run against the real
 * system (systemd, HTTP, flock) or against fakes in contract tests.
 */
import { existsSync } from 'node:fs';
import type { Env } from '../platform/paths.js';
import { type HeldLock, lockHeld } from '../platform/lock.js';
import { tryLock } from './locks.js';
import { probeReadiness, type Readiness, requestShutdown } from './probe.js';
import type { SchedulerAdapter } from './scheduler.js';
import type { StateStore } from './state.js';
import { processRunning } from '../platform/processes.js';

interface Timing {
  /** start: readiness must match within this budget. */
  startMs: number;
  /** stop: graceful completion after the control shutdown. */
  stopGraceMs: number;
  /** stop: the whole operation, including the service-manager fallback. */
  stopDeadlineMs: number;
  pollMs: number;
}

const DEFAULT_TIMING: Timing = { startMs: 15_000, stopGraceMs: 5_000, stopDeadlineMs: 15_000, pollMs: 100 };

export interface ServiceContext {
  adapter: SchedulerAdapter;
  store: StateStore;
  serviceId: string;
  platform: 'linux' | 'win32';
  env: Env;
  /** The running ah's version (what a fresh managed server reports). */
  version: string;
  timing: Timing;
  /** The adapter reports the service's main PID (systemd does; Task Scheduler does not). */
  schedulerKnowsPid: boolean;
  probe(port: number): Promise<Readiness>;
  shutdown(port: number, instanceId: string): Promise<number>;
  isAlive(pid: number): boolean;
  fileExists(path: string): boolean;
  lock(path: string, waitSeconds: number): Promise<HeldLock | null>;
  leaseHeld(path: string): Promise<boolean>;
  sleep(ms: number): Promise<void>;
  now(): number;
}

/** Test-only overrides of the budgets (not flags: a normal install never sets them). */
function timingFrom(env: Env): Timing {
  const num = (name: string, fallback: number) => {
    const raw = env[name];
    return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : fallback;
  };
  return {
    startMs: num('AH_INTERNAL_SERVICE_START_TIMEOUT_MS', DEFAULT_TIMING.startMs),
    stopGraceMs: num('AH_INTERNAL_SERVICE_STOP_GRACE_MS', DEFAULT_TIMING.stopGraceMs),
    stopDeadlineMs: num('AH_INTERNAL_SERVICE_STOP_DEADLINE_MS', DEFAULT_TIMING.stopDeadlineMs),
    pollMs: DEFAULT_TIMING.pollMs,
  };
}

export function liveContext(
  parts: Pick<ServiceContext, 'adapter' | 'store' | 'serviceId' | 'platform' | 'env' | 'version'>,
): ServiceContext {
  return {
    ...parts,
    timing: timingFrom(parts.env),
    schedulerKnowsPid: parts.adapter.kind === 'systemd',
    probe: (port) => probeReadiness(port),
    shutdown: (port, id) => requestShutdown(port, id),
    isAlive: processRunning,
    fileExists: (path) => existsSync(path),
    lock: tryLock,
    leaseHeld: lockHeld,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    now: () => Date.now(),
  };
}
