/**
 * What an external plugin module exports: a DomainModule (the same contract as built-in domains),
 * as the default export or as `domain`. Modules live in <config root>/plugins/*.mjs|*.js.
 * The checks here cover the module's own shape; descriptors are checked by the catalog registry.
 */
import type { DomainModule } from '../catalog/descriptor.js';

export type PluginModuleExports = { default?: unknown; domain?: unknown };

export function moduleFromExports(exports: PluginModuleExports): unknown {
  return exports.default ?? exports.domain;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): boolean => Array.isArray(v) && v.every((s) => typeof s === 'string');

function requiredToolProblems(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return ['requiredTools must be a list'];
  const bad = value.some((t) => !isObject(t) || typeof t.name !== 'string' || !isStringList(t.check_args) || typeof t.reason !== 'string');
  return bad ? ['each requiredTools entry needs name, check_args[] and reason'] : [];
}

/** Problems with the module object itself (empty when the shape is usable). */
export function shapeProblems(value: unknown): string[] {
  if (!isObject(value)) return ['the module exports no domain object (default export or `domain`)'];
  const m = value as Partial<Record<keyof DomainModule, unknown>>;
  const problems: string[] = [];
  if (typeof m.domain !== 'string' || !/^[a-z0-9-]+$/.test(m.domain)) problems.push('domain must be a lowercase [a-z0-9-] name');
  if (typeof m.pluginName !== 'string' || m.pluginName.trim() === '') problems.push('pluginName is required');
  if (typeof m.description !== 'string') problems.push('description is required');
  if (!Array.isArray(m.commands)) problems.push('commands must be a list');
  else if (!m.commands.every(isObject)) problems.push('every command must be a descriptor object');
  if (m.notes !== undefined && !isStringList(m.notes)) problems.push('notes must be a list of strings');
  problems.push(...requiredToolProblems(m.requiredTools));
  return problems;
}
