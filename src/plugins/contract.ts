/**
 * What an external plugin module exports: a DomainModule (the same contract as built-in domains),
 * as the default export or as `domain`. Modules live in <config root>/plugins/*.mjs|*.js.
 */
import type { DomainModule } from '../catalog/descriptor.js';

export type PluginModuleExports = { default?: unknown; domain?: unknown };

export function moduleFromExports(exports: PluginModuleExports): unknown {
  return exports.default ?? exports.domain;
}

export function shapeProblems(value: unknown): string[] {
  if (!value || typeof value !== 'object') return ['the module exports no domain object'];
  const m = value as Partial<DomainModule>;
  const problems: string[] = [];
  if (typeof m.domain !== 'string' || !/^[a-z0-9-]+$/.test(m.domain)) problems.push('domain must be a lowercase name');
  if (typeof m.pluginName !== 'string' || m.pluginName === '') problems.push('pluginName is required');
  if (typeof m.description !== 'string') problems.push('description is required');
  if (!Array.isArray(m.commands)) problems.push('commands must be a list');
  return problems;
}
