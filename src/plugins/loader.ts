/**
 * Loads external plugin modules from <config root>/plugins in file-name order. Bad modules are
 * skipped with a warning; a module may replace a built-in domain (with a warning), never a host one.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DomainModule } from '../catalog/descriptor.js';
import { descriptorProblems, HOST_DOMAINS } from '../catalog/registry.js';
import { moduleFromExports, type PluginModuleExports, shapeProblems } from './contract.js';

export interface PluginWarning {
  code: string;
  message: string;
  cause: string;
}

export async function loadExternalPlugins(
  configDir: string,
  builtinDomains: readonly string[] = [],
): Promise<{ modules: DomainModule[]; warnings: PluginWarning[] }> {
  const dir = join(configDir, 'plugins');
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.mjs') || n.endsWith('.js')).sort();
  } catch {
    return { modules: [], warnings: [] };
  }
  const byDomain = new Map<string, DomainModule>();
  const warnings: PluginWarning[] = [];
  const warn = (file: string, message: string, cause: string) =>
    warnings.push({ code: 'PLUGIN_METADATA_INVALID', message: `skipped plugin ${file}: ${message}`, cause });
  for (const name of names) {
    const path = join(dir, name);
    let value: unknown;
    try {
      value = moduleFromExports((await import(pathToFileURL(path).href)) as PluginModuleExports);
    } catch (error) {
      warn(name, 'it could not be loaded', error instanceof Error ? error.message : String(error));
      continue;
    }
    const shape = shapeProblems(value);
    if (shape.length > 0) {
      warn(name, shape[0] as string, shape.join('; '));
      continue;
    }
    const module = value as DomainModule;
    if (HOST_DOMAINS.includes(module.domain)) {
      warn(name, `'${module.domain}' is a reserved host domain`, 'host domains cannot be provided by plugins');
      continue;
    }
    const bad = module.commands.map((d) => [d.id, descriptorProblems(d)] as const).find(([, p]) => p.length > 0);
    if (bad) {
      warn(name, `command '${bad[0]}' is invalid: ${bad[1][0]}`, bad[1].join('; '));
      continue;
    }
    if (module.commands.some((d) => !d.id.startsWith(`${module.domain}.`))) {
      warn(name, 'a command id is outside the module domain', module.domain);
      continue;
    }
    if (builtinDomains.includes(module.domain) || byDomain.has(module.domain)) {
      warnings.push({
        code: 'PLUGIN_DOMAIN_CONFLICT',
        message: `plugin ${name} replaces the '${module.domain}' domain`,
        cause: byDomain.has(module.domain) ? 'an earlier plugin file provided the same domain' : 'a built-in domain has the same name',
      });
    }
    byDomain.set(module.domain, { ...module, source: 'external' });
  }
  return { modules: [...byDomain.values()], warnings };
}
