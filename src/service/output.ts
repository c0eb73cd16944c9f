/**
 * Output contracts. Mutations (install, start, stop, restart) share schema v1 with a fixed field
 * order; uninstall has its own schema with the same order and explicit nulls for last-known ids.
 * JSON key order is part of the contract, so every builder writes the fields in interface order.
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

export interface MutationOutput {
  command: 'install' | 'start' | 'stop' | 'restart';
  schema_version: 1;
  changed: boolean;
  action: MutationAction;
  service_id: string;
  configuration_id: string;
  task_path: string;
  endpoint: string;
  registration: { state: 'installed'; enabled: true };
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
  registration: { state: 'not_installed'; enabled: null };
  runtime: RuntimeSummary;
}

export const STOPPED: RuntimeSummary = { state: 'stopped', pid: null, instance_id: null, configuration_id: null, version: null };

export function running(rt: RuntimeRecord): RuntimeSummary {
  return { state: 'running', pid: rt.pid, instance_id: rt.instance_id, configuration_id: rt.configuration_id, version: rt.version };
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
