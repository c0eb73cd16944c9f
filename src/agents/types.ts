/** The vocabulary of `ah ai install|uninstall|status`: targets, scopes, transports and report shapes (schema v1). */

export const TARGETS = ['claude', 'codex', 'gemini', 'cursor', 'copilot', 'copilot-cli', 'opencode'] as const;
export type TargetName = (typeof TARGETS)[number];
export type Scope = 'local' | 'project' | 'user';
export type Transport = 'stdio' | 'http' | 'managed';

/** The server name ah registers; LEGACY_NAME is what older installs used and is cleaned up. */
export const SERVER_NAME = 'aihelper';
export const LEGACY_NAME = 'ah';

export type Action = 'installed' | 'updated' | 'unchanged' | 'removed' | 'not_present' | 'skipped' | 'unknown';

/** A server registration as the client will launch it, independent of the client's file format. */
export type Launch = { transport: 'stdio'; command: string; args: string[] } | { transport: 'http'; url: string };

export interface McpReport {
  action: Action;
  registrar: 'cli' | 'file' | null;
  transport: 'stdio' | 'http' | null;
  url: string | null;
  /** The config file (file registrars only). */
  path: string | null;
}

export interface RulesReport {
  action: Action;
  path: string | null;
}

export interface ManagedServiceReport {
  action: 'already_running' | 'started' | 'installed';
  endpoint: string;
}

export interface Report {
  command: 'ai.install' | 'ai.uninstall' | 'ai.status';
  schema_version: 1;
  target: TargetName;
  scope: Scope;
  changed: boolean;
  dry_run: boolean;
  mcp: McpReport;
  rules: RulesReport;
  managed_service: ManagedServiceReport | null;
  warnings: string[];
}

export interface StatusRow {
  scope: Scope;
  /** null: this target has no MCP registration at this scope. */
  mcp: McpReport | null;
  /** null: this target has no rules file at this scope. */
  rules: RulesReport | null;
}

export interface StatusReport extends Report {
  scopes: StatusRow[];
}

/** `ah ai install all` (and uninstall/status without a target): one report per target. */
export interface AllReport<R extends Report = Report> {
  command: Report['command'];
  schema_version: 1;
  target: 'all';
  changed: boolean;
  dry_run: boolean;
  reports: R[];
  warnings: string[];
}
