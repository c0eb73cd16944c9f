/**
 * Loads external plugin modules from <config root>/plugins in file-name order. Bad modules are
 * skipped with a warning; a module may replace a built-in domain (with a warning), never a host one.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DomainModule } from '../catalog/descriptor.js';
import { descriptorProblems, HOST_DOMAINS } from '../catalog/registry.js';
import { moduleFromExports, type PluginModuleExports, shapeProblems } from './contract.js';
import { listDirectory } from '../platform/fs-callback.js';
import { importModule } from '../platform/import-module.js';

export interface PluginWarning {
  code: string;
  message: string;
  cause: string;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The first problem with a module's commands, or null when all are valid. */
function commandProblem(module: DomainModule, verifyExamples: boolean): { message: string; cause: string } | null {
  const seen = new Set<string>();
  for (const d of module.commands) {
    let problems: string[];
    try {
      problems = descriptorProblems(d, { verifyExamples });
    } catch (error) {
      // A descriptor malformed enough to break the checks themselves (e.g. no schema at all).
      problems = [`its descriptor cannot be checked: ${errorText(error)}`];
    }
    const id = typeof d.id === 'string' ? d.id : '(no id)';
    if (problems.length > 0) return { message: `command '${id}' is invalid: ${problems[0]}`, cause: problems.join('; ') };
    if (!id.startsWith(`${module.domain}.`)) {
      return { message: `command '${id}' is outside the '${module.domain}' domain`, cause: `ids must start with '${module.domain}.'` };
    }
    if (seen.has(id)) return { message: `command '${id}' is declared twice`, cause: 'command ids must be unique' };
    seen.add(id);
  }
  return null;
}

/**
 * Runs a module through the plugin contract: its own shape, then every descriptor. Bundled and
 * external modules take the same checks, so a bundled domain proves the contract a third party uses.
 */
export function checkPluginModule(
  value: unknown,
  options: { verifyExamples?: boolean } = {},
): { module: DomainModule } | { message: string; cause: string } {
  const shape = shapeProblems(value);
  if (shape.length > 0) return { message: shape[0] as string, cause: shape.join('; ') };
  const module = value as DomainModule;
  if (HOST_DOMAINS.includes(module.domain)) {
    return { message: `'${module.domain}' is a reserved host domain`, cause: `reserved: ${HOST_DOMAINS.join(', ')}` };
  }
  return commandProblem(module, options.verifyExamples !== false) ?? { module };
}

/**
 * The plugins that ship with ah (`exports` as each module's file would export them). A bundled
 * module that fails the contract is a build defect: it is skipped with a warning like any other.
 */
export function loadBundledPlugins(
  bundled: readonly PluginModuleExports[],
  /** Each module's domain as the shipped list names it (for warnings; by position when absent). */
  names?: readonly string[],
): { modules: DomainModule[]; warnings: PluginWarning[] } {
  const modules: DomainModule[] = [];
  const warnings: PluginWarning[] = [];
  for (const [index, exports] of bundled.entries()) {
    // Examples and schema documents of bundled plugins are checked by the catalog tests, as for
    // built-ins: checking them here would load and run Ajv's compiler on every start-up.
    const checked = checkPluginModule(moduleFromExports(exports), { verifyExamples: false });
    if ('module' in checked) {
      modules.push({ ...checked.module, host: false, source: 'bundled' });
    } else {
      warnings.push({
        code: 'PLUGIN_METADATA_INVALID',
        message: `skipped bundled plugin ${names?.[index] !== undefined ? `'${names[index]}'` : `#${index + 1}`}: ${checked.message}`,
        cause: checked.cause,
      });
    }
  }
  return { modules, warnings };
}

/**
 * `builtinDomains` names the compiled-in domains so overriding one is reported. Returns the
 * surviving modules (marked external) and one warning per skipped file or override.
 */
export async function loadExternalPlugins(
  configDir: string,
  builtinDomains: readonly string[] = [],
): Promise<{ modules: DomainModule[]; warnings: PluginWarning[] }> {
  const dir = join(configDir, 'plugins');
  let names: string[];
  try {
    names = (await listDirectory(dir)).filter((n) => n.endsWith('.mjs') || n.endsWith('.js')).sort();
  } catch {
    // No plugins directory (the common case): one failed readdir and nothing else.
    return { modules: [], warnings: [] };
  }
  const byDomain = new Map<string, DomainModule>();
  const warnings: PluginWarning[] = [];
  const skip = (file: string, message: string, cause: string) =>
    warnings.push({ code: 'PLUGIN_METADATA_INVALID', message: `skipped plugin ${file}: ${message}`, cause });
  for (const name of names) {
    let value: unknown;
    try {
      value = moduleFromExports((await importModule(pathToFileURL(join(dir, name)).href)) as PluginModuleExports);
    } catch (error) {
      skip(name, 'it could not be loaded', errorText(error));
      continue;
    }
    const checked = checkPluginModule(value);
    if (!('module' in checked)) {
      skip(name, checked.message, checked.cause);
      continue;
    }
    const module = checked.module;
    if (builtinDomains.includes(module.domain) || byDomain.has(module.domain)) {
      warnings.push({
        code: 'PLUGIN_DOMAIN_CONFLICT',
        message: `plugin ${name} replaces the '${module.domain}' domain`,
        cause: byDomain.has(module.domain) ? 'an earlier plugin file provided the same domain' : 'a built-in domain has the same name',
      });
    }
    // Only the host decides what is a host domain: a plugin cannot make itself undisableable.
    byDomain.set(module.domain, { ...module, host: false, source: 'external' });
  }
  return { modules: [...byDomain.values()], warnings };
}
