/**
 * Loads Ajv on first use. From source this is a plain CommonJS require; the build replaces this
 * module with a bundled `require()` that esbuild keeps lazy, so a process that never compiles a
 * schema at run time (`ah mcp serve` up to its first tools/call) never evaluates Ajv.
 */
import { createRequire } from 'node:module';

type AjvModule = typeof import('ajv/dist/2020.js');
type FormatsModule = typeof import('ajv-formats');

const requireCjs = createRequire(import.meta.url);

export function loadAjv(): AjvModule {
  return requireCjs('ajv/dist/2020.js') as AjvModule;
}

export function loadAjvFormats(): FormatsModule {
  return requireCjs('ajv-formats') as FormatsModule;
}
