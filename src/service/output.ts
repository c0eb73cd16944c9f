/**
 * Output contracts. Mutations (install, start, stop, restart) share schema v1 with a fixed field
 * order; uninstall has its own schema with the same order and explicit nulls for last-known ids.
 */
import type { RuntimeRecord } from './state.js';

type MutationAction =
  | 'installed'
  | 'updated'
  | 'unchanged'
  | 'started'
  | 'already_running'
  | 'stopped'
  | 'already_stopped'
  | 'forced_stopped'
  | 'restarted';

interface RuntimeSummary {
  state: 'running' | 'stopped';
  pid: number | null;
  instance_id: string | null;
  configuration_id: string | null;
  version: string | null;
}

interface RegistrationSummary {
  state: 'installed' | 'not_installed';
  enabled: boolean | null;
}

export interface MutationOutput {
  command: 'install' | 'start' | 'stop' | 'restart';
  schema_version: 1;
  changed: boolean;
  action: MutationAction;
  service_id: string;
  configuration_id: string;
  task_path: string;
  endpoint: string;
  registration: RegistrationSummary;
  runtime: RuntimeSummary;
}

export interface UninstallOutput {
  command: 'uninstall';
  schema_version: 1;
  changed: boolean;
  action: 'uninstalled' | 'already_uninstalled';
  service_id: string | null;
  configuration_id: string | null;
  task_path: string;
  endpoint: string | null;
  registration: RegistrationSummary;
  runtime: RuntimeSummary;
}

export const STOPPED: RuntimeSummary = { state: 'stopped', pid: null, instance_id: null, configuration_id: null, version: null };

export function running(rt: RuntimeRecord): RuntimeSummary {
  return { state: 'running', pid: rt.pid, instance_id: rt.instance_id, configuration_id: rt.configuration_id, version: rt.version };
}

/** Builds the object field by field so JSON key order is the contract's order. */
function ordered<T extends MutationOutput | UninstallOutput>(f: Omit<T, 'schema_version'>): T {
  const r = f.runtime;
  return {
    command: f.command,
    schema_version: 1,
    changed: f.changed,
    action: f.action,
    service_id: f.service_id,
    configuration_id: f.configuration_id,
    task_path: f.task_path,
    endpoint: f.endpoint,
    registration: { state: f.registration.state, enabled: f.registration.enabled },
    runtime: { state: r.state, pid: r.pid, instance_id: r.instance_id, configuration_id: r.configuration_id, version: r.version },
  } as T;
}

export function mutationOutput(fields: Omit<MutationOutput, 'schema_version'>): MutationOutput {
  return ordered<MutationOutput>(fields);
}

export function uninstallOutput(fields: Omit<UninstallOutput, 'schema_version' | 'command'>): UninstallOutput {
  return ordered<UninstallOutput>({ command: 'uninstall', ...fields });
}

/** One or two lines for people. */
export function mutationText(o: MutationOutput | UninstallOutput): string {
  const where = o.endpoint ? ` (${o.endpoint})` : '';
  const lines = [`${o.action.replaceAll('_', ' ')}: managed MCP service${where}`];
  if (o.runtime.state === 'running')
    lines.push(`  pid ${o.runtime.pid}, instance ${o.runtime.instance_id}, configuration ${o.runtime.configuration_id}`);
  lines.push(`  registration: ${o.task_path}`);
  return lines.join('\n');
}
