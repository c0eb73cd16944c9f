/** Building blocks of the schema v1 report shared by install, uninstall and status. */
import type { McpSite } from './site.js';
import type { Action, Launch, McpReport, Report, RulesReport, Scope, TargetName } from './types.js';

export function mcpReport(action: Action, site: McpSite | null, launch: Launch | null): McpReport {
  return {
    action,
    registrar: site?.registrar ?? null,
    transport: launch?.transport ?? null,
    url: launch?.transport === 'http' ? launch.url : null,
    path: site?.registrar === 'file' ? site.path : null,
  };
}

export function rulesReport(action: Action, path: string | null): RulesReport {
  return { action, path };
}

export function baseReport(command: Report['command'], target: TargetName, scope: Scope, dryRun: boolean): Report {
  return {
    command,
    schema_version: 1,
    target,
    scope,
    changed: false,
    dry_run: dryRun,
    mcp: mcpReport('skipped', null, null),
    rules: rulesReport('skipped', null),
    managed_service: null,
    warnings: [],
  };
}

const CHANGES: readonly Action[] = ['installed', 'updated', 'removed'];

/** Whether a report's actions changed anything (false for every dry run). */
export function changedBy(report: Report): boolean {
  if (report.dry_run) return false;
  return (
    CHANGES.includes(report.mcp.action) ||
    CHANGES.includes(report.rules.action) ||
    (report.managed_service !== null && report.managed_service.action !== 'already_running')
  );
}
