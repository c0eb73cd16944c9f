/**
 * Everything a lifecycle operation touches, injected so the algorithms can run against the real
 * system (systemd, HTTP, flock) or against fakes in contract tests.
 */
import { existsSync } from 'node:fs';
import type { Env } from '../platform/paths.js';
import { type HeldLock, lockHeld } from '../platform/lock.js';
import { probeReadiness, type Readiness, requestShutdown } from './probe.js';
import type { SchedulerAdapter } from './scheduler.js';
import { type StateStore, tryLock } from './state.js';
import { processRunning } from '../platform/processes.js';

export interface ServiceContext {
  adapter: SchedulerAdapter;
  store: StateStore;
  serviceId: string;
  platform: 'linux' | 'win32';
  env: Env;
  /** The running ah's version (what a fresh managed server reports). */
  version: string;
  timing: {
    /** start: readiness must match within this budget. */
    startMs: number;
    /** stop: graceful completion after the control shutdown. */
    stopGraceMs: number;
    /** stop: the whole operation, including the service-manager fallback. */
    stopDeadlineMs: number;
    pollMs: number;
  };
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

/** A test-only knob from the environment (not a flag: a normal install never sets it). */
export function internalKnob(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : fallback;
}

export function liveContext(
  parts: Pick<ServiceContext, 'adapter' | 'store' | 'serviceId' | 'platform' | 'env' | 'version'>,
): ServiceContext {
  return {
    ...parts,
    timing: {
      startMs: internalKnob(parts.env, 'AH_INTERNAL_SERVICE_START_TIMEOUT_MS', 15_000),
      stopGraceMs: internalKnob(parts.env, 'AH_INTERNAL_SERVICE_STOP_GRACE_MS', 5_000),
      stopDeadlineMs: internalKnob(parts.env, 'AH_INTERNAL_SERVICE_STOP_DEADLINE_MS', 15_000),
      pollMs: 100,
    },
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
