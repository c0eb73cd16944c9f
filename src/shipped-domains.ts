/**
 * Every domain that ships with ah, by name, each behind a loader. Part of the composition root:
 * main.ts reaches its domains only through these, so the bundle keeps every domain's modules
 * behind esbuild's lazy module wrappers. A CLI call that names one domain then builds that
 * domain's descriptors and schemas alone (about 8 ms less start-up per call); the server, help
 * and the commands that read the whole catalog load every domain. `shipped-domains.test.ts`
 * checks that names, order and modules are exactly BUILTIN_DOMAINS and BUNDLED_PLUGINS.
 */
import type { DomainModule } from './catalog/descriptor.js';
import type { PluginModuleExports } from './plugins/contract.js';

export interface ShippedLoader<T> {
  domain: string;
  load: () => Promise<T>;
}

/** The built-in domains, in BUILTIN_DOMAINS order. */
export const BUILTIN_LOADERS: readonly ShippedLoader<DomainModule>[] = [
  { domain: 'ai', load: async () => (await import('./commands/ai/index.js')).aiDomain },
  { domain: 'ctx', load: async () => (await import('./commands/ctx/index.js')).ctxDomain },
  { domain: 'file', load: async () => (await import('./commands/file/index.js')).fileDomain },
  { domain: 'git', load: async () => (await import('./commands/git/index.js')).gitDomain },
  { domain: 'mcp', load: async () => (await import('./commands/mcp/index.js')).mcpDomain },
  { domain: 'plugins', load: async () => (await import('./commands/plugins/index.js')).pluginsDomain },
  { domain: 'project', load: async () => (await import('./commands/project/index.js')).projectDomain },
  { domain: 'run', load: async () => (await import('./commands/run/index.js')).runDomain },
  { domain: 'search', load: async () => (await import('./commands/search/index.js')).searchDomain },
  { domain: 'secrets', load: async () => (await import('./commands/secrets/index.js')).secretsDomain },
  { domain: 'task', load: async () => (await import('./commands/task/index.js')).taskDomain },
];

/** The bundled plugins' module exports, in BUNDLED_PLUGINS order. */
export const BUNDLED_LOADERS: readonly ShippedLoader<PluginModuleExports>[] = [
  { domain: 'http', load: () => import('./plugins/bundled/http/index.js') },
  { domain: 'ollama', load: () => import('./plugins/bundled/ollama/index.js') },
  { domain: 'github', load: async () => ({ default: (await import('./plugins/bundled/github/index.js')).default }) },
  { domain: 'gitlab', load: async () => ({ default: (await import('./plugins/bundled/gitlab/index.js')).default }) },
  { domain: 'postgres', load: () => import('./plugins/bundled/postgres/index.js') },
];

/** The names of every shipped domain, built-in first. */
export const SHIPPED_NAMES: readonly string[] = [...BUILTIN_LOADERS, ...BUNDLED_LOADERS].map((l) => l.domain);

/**
 * Domains whose commands read the whole catalog (`ai info`, `plugins list`, `mcp serve`): a call
 * of theirs loads every domain.
 */
const CATALOG_WIDE = new Set(['ai', 'mcp', 'plugins']);

/**
 * The one shipped domain a CLI call needs, or null when it needs them all. `word` is the call's
 * domain word (route.ts `domainWord`): help, a typo (whose suggestion needs every name), a domain
 * that reads the catalog, or a name no shipped domain has (an external plugin's) loads everything.
 */
export function soleDomain(word: string | undefined): string | null {
  if (word === undefined || CATALOG_WIDE.has(word) || !SHIPPED_NAMES.includes(word)) return null;
  return word;
}
