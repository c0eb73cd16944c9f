/** Text output of `ah ai install|uninstall|status` for people (JSON mode prints the reports as they are). */
import type { McpReport, Report, RulesReport, StatusReport } from './types.js';

function mcpText(m: McpReport | null): string {
  if (m === null) return 'not supported';
  const how = m.registrar === null ? '' : m.registrar === 'cli' ? ' (agent CLI)' : ` (${m.path})`;
  const what = m.transport === 'http' && m.url ? ` http ${m.url}` : m.transport === 'stdio' ? ' stdio' : '';
  return `${m.action.replace('_', ' ')}${what}${how}`;
}

function rulesText(r: RulesReport | null): string {
  if (r === null) return 'not supported';
  return `${r.action.replace('_', ' ')}${r.path ? ` (${r.path})` : ''}`;
}

export function reportText(r: Report): string[] {
  const lines = [
    `${r.target} (${r.scope} scope)${r.dry_run ? ' [dry run]' : ''}`,
    `  mcp:   ${mcpText(r.mcp)}`,
    `  rules: ${rulesText(r.rules)}`,
  ];
  if (r.managed_service) lines.push(`  managed service: ${r.managed_service.action.replace('_', ' ')} at ${r.managed_service.endpoint}`);
  return lines;
}

export function statusText(r: StatusReport): string[] {
  const lines: string[] = [r.target];
  for (const row of r.scopes) lines.push(`  ${row.scope.padEnd(8)} mcp: ${mcpText(row.mcp)}; rules: ${rulesText(row.rules)}`);
  if (r.scopes.length === 0) lines.push('  (no scope to check here)');
  return lines;
}
