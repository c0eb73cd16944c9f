/** Loading the installed definition and checking the registration before a lifecycle mutation. */
import type { ServiceContext } from './context.js';
import { configurationId, type ServiceDefinition } from './definition.js';
import { serviceError } from './errors.js';
import { type DriftEntry, driftOf, type RegistrationInfo } from './scheduler.js';

export interface Installed {
  definition: ServiceDefinition;
  configurationId: string;
}

/** The definition current.json points at; null when there is no current.json. */
export async function loadInstalled(ctx: ServiceContext, operation: string): Promise<Installed | null> {
  const current = await ctx.store.readCurrent();
  if (current.kind === 'missing') return null;
  const hint = 'Run `ah mcp service install` to repair the managed-service state.';
  if (current.kind === 'invalid')
    throw serviceError('MCP_SERVICE_STATE_INVALID', 'current.json is unreadable', { cause: current.reason, hint, operation });
  const id = current.value.configuration_id;
  const definition = await ctx.store.readDefinition(id);
  if (definition.kind !== 'ok') {
    const cause = definition.kind === 'missing' ? `${ctx.store.definitionPath(id)} is missing` : definition.reason;
    throw serviceError('MCP_SERVICE_STATE_INVALID', `the definition ${id} does not verify`, { cause, hint, operation });
  }
  if (definition.value.service_id !== ctx.serviceId || configurationId(definition.value) !== id) {
    throw serviceError('MCP_SERVICE_STATE_INVALID', `the definition ${id} belongs to another service`, { hint, operation });
  }
  return { definition: definition.value, configurationId: id };
}

export function driftFor(ctx: ServiceContext, installed: Installed, reg: RegistrationInfo): DriftEntry[] {
  return reg.state === 'present' ? driftOf(ctx.adapter.expectedProperties(installed.definition), reg.properties) : [];
}

export function conflictError(ctx: ServiceContext, operation: string) {
  return serviceError('MCP_SERVICE_TASK_CONFLICT', `${ctx.adapter.taskPath} exists but is not owned by this AIHelper service`, {
    cause: 'the registration lacks the exact ownership marker for this user',
    hint: 'Remove or rename the foreign registration yourself; AIHelper never overwrites it.',
    operation,
  });
}

/** start/restart preconditions: installed, owned, canonical. */
export async function requireRegistered(ctx: ServiceContext, operation: string): Promise<{ installed: Installed; reg: RegistrationInfo }> {
  const reg = await ctx.adapter.inspect();
  if (reg.state === 'present' && !reg.owned) throw conflictError(ctx, operation);
  const installed = await loadInstalled(ctx, operation);
  if (reg.state === 'missing' || installed === null) {
    throw serviceError('MCP_SERVICE_NOT_INSTALLED', 'the managed MCP service is not installed', {
      cause: reg.state === 'missing' ? `${ctx.adapter.taskPath} does not exist` : 'current.json is missing',
      hint: 'Run `ah mcp service install`.',
      operation,
    });
  }
  return { installed, reg };
}

export function describeDrift(drift: readonly DriftEntry[]): string {
  return drift.map((d) => `${d.field}: expected ${JSON.stringify(d.expected)}, found ${JSON.stringify(d.actual)}`).join('; ');
}
