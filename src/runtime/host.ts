/**
 * What a host command (`mcp serve`, `mcp service …`, `secrets …`) is handed by the composition
 * root: the process-wide pieces, independent of the surface that started it.
 */
import type { EventLog } from '../logging/types.js';
import type { Env } from '../platform/paths.js';
import type { LiveCatalog } from './live-catalog.js';

export interface Host {
  /** Absolute base directory (process cwd or --cwd). */
  cwd: string;
  /** Whether --cwd was given explicitly. */
  explicitCwd: boolean;
  limit: number | null;
  env: Env;
  configDir: string;
  catalog: LiveCatalog;
  log: EventLog;
  version: string;
}
