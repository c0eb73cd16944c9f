/** Where one target keeps its MCP registration at one scope, and how it is changed. */
import type { Step } from './steps.js';
import type { Launch } from './types.js';

export interface Probe {
  /** An `aihelper` entry exists (recognised or not). */
  present: boolean;
  /** The entry as a Launch; null when absent or not understood. */
  current: Launch | null;
  /** A legacy `ah` entry exists. */
  legacy: boolean;
}

export interface McpSite {
  registrar: 'cli' | 'file';
  /** The config file that holds the registration (probed; edited by file registrars). */
  path: string;
  /** Read-only look at the current registration. */
  probe(): Promise<Probe>;
  /** Steps that leave exactly `desired` registered (and no legacy entry). */
  install(desired: Launch, probe: Probe): Step[];
  /** Steps that leave neither `aihelper` nor the legacy entry registered. */
  uninstall(probe: Probe): Step[];
}
