/**
 * The interface both service managers implement (systemd user units on Linux, Task Scheduler on
 * Windows), so the lifecycle algorithms, status reduction and drift detection are written once.
 */
import type { ServiceDefinition } from './definition.js';

export interface RegistrationInfo {
  state: 'missing' | 'present';
  /** The registration carries our exact ownership marker (this user's service id). */
  owned: boolean;
  /** Exact stored content, to notice a change between inspection and deletion. */
  fingerprint: string | null;
  /** Semantic properties as registered (compared property by property for drift). */
  properties: Record<string, string> | null;
}

export type SchedulerState = 'active' | 'activating' | 'restart_pending' | 'deactivating' | 'inactive' | 'failed' | 'not_loaded';

export interface SchedulerInfo {
  reachable: boolean;
  /** The manager's own message when it cannot be reached or refused the query. */
  message: string | null;
  state: SchedulerState | null;
  main_pid: number | null;
  enabled: boolean | null;
  /** The manager's record of how the last run ended ("success", "exit-code", "signal", …). */
  last_result: string | null;
  last_exit_code: number | null;
}

/** What a query reports when the manager cannot be reached or refused it. */
export function unreachable(message: string): SchedulerInfo {
  return { reachable: false, message, state: null, main_pid: null, enabled: null, last_result: null, last_exit_code: null };
}

export interface SchedulerAdapter {
  readonly kind: 'systemd' | 'task-scheduler';
  /** Where the registration lives (unit file path or task path). */
  readonly taskPath: string;
  /** The properties a canonical registration of this definition has. */
  expectedProperties(definition: ServiceDefinition): Record<string, string>;
  inspect(): Promise<RegistrationInfo>;
  query(): Promise<SchedulerInfo>;
  /** Writes (or rewrites) the owned registration and enables it. */
  register(definition: ServiceDefinition): Promise<void>;
  /** Asks the manager to run the registered service now. */
  start(): Promise<void>;
  /** Asks the manager to stop the service (only after the caller proved ownership). */
  stop(): Promise<void>;
  /** Deletes the registration if it is still exactly `fingerprint` (else MCP_SERVICE_TASK_CHANGED). */
  unregister(fingerprint: string): Promise<void>;
}

export interface DriftEntry {
  field: string;
  expected: string | null;
  actual: string | null;
}

/** Property-level drift, sorted by field. */
export function driftOf(expected: Record<string, string>, actual: Record<string, string> | null): DriftEntry[] {
  if (actual === null) return [];
  return [...new Set([...Object.keys(expected), ...Object.keys(actual)])]
    .map((field) => ({ field, expected: expected[field] ?? null, actual: actual[field] ?? null }))
    .filter((d) => d.expected !== d.actual)
    .sort((x, y) => (x.field < y.field ? -1 : x.field > y.field ? 1 : 0));
}

/** Runs one manager command line; `missing` when the program is not installed. */
export type Runner = (
  program: string,
  args: readonly string[],
) => Promise<{ kind: 'exited'; code: number | null; stdout: string; stderr: string } | { kind: 'missing' | 'failed'; message: string }>;
