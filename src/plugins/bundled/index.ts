/**
 * The plugins that ship with ah. Each entry is what the plugin's own module exports (a default
 * export or `domain`), exactly like a file in <config root>/plugins: the loader runs them through
 * the same contract checks (plugins/loader.ts `checkPluginModule`), they can be disabled like any
 * domain, and an external module of the same domain replaces them. A bundled plugin keeps its
 * descriptors light and imports its heavy dependencies inside `run`, so start-up and tools/list
 * never pay for them.
 */
import { moduleFromExports, type PluginModuleExports } from '../contract.js';
import github from './github/index.js';
import gitlab from './gitlab/index.js';
import * as http from './http/index.js';
import * as ollama from './ollama/index.js';
import * as postgres from './postgres/index.js';

export const BUNDLED_PLUGINS: readonly PluginModuleExports[] = [http, ollama, { default: github }, { default: gitlab }, postgres];

/** The domain objects of the bundled plugins, unchecked (the build and the catalog tests use it). */
export function bundledDomainObjects(): unknown[] {
  return BUNDLED_PLUGINS.map(moduleFromExports);
}
