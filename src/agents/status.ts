/**
 * `ah ai status`: read-only, per scope, for one target or all of them (checked in parallel). It
 * reads config files only; no agent CLI is started. A file that cannot be read makes that row
 * `unknown` with a warning instead of failing the whole status.
 */
import { findOnPath } from '../platform/which.js';
import type { AgentContext } from './context.js';
import { mcpReport, rulesReport } from './reports.js';
import { rulesState } from './rules.js';
import type { TargetSpec } from './target.js';
import { baseReport } from './reports.js';
import type { McpReport, RulesReport, Scope, StatusReport, StatusRow } from './types.js';

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function mcpRow(spec: TargetSpec, scope: Scope, ctx: AgentContext, warnings: string[]): Promise<McpReport | null> {
  const site = spec.mcpSite(scope, ctx, 'read');
  if (site === null) return null;
  try {
    const probe = await site.probe();
    if (probe.legacy) warnings.push(`${scope}: a legacy 'ah' registration is present (install or uninstall removes it)`);
    return mcpReport(probe.present ? 'installed' : 'not_present', site, probe.current);
  } catch (error) {
    warnings.push(`${scope}: ${reason(error)}`);
    return mcpReport('unknown', site, null);
  }
}

async function rulesRow(spec: TargetSpec, scope: Scope, ctx: AgentContext, warnings: string[]): Promise<RulesReport | null> {
  const file = spec.rulesFile(scope, ctx);
  if (file === null) return spec.name === 'cursor' ? rulesReport('unknown', null) : null;
  try {
    return rulesReport(await rulesState(file), file.path);
  } catch (error) {
    warnings.push(`${scope}: ${reason(error)}`);
    return rulesReport('unknown', file.path);
  }
}

/** Project and local rows only make sense inside a project (a `.git` above the working directory). */
function scopesShown(spec: TargetSpec, ctx: AgentContext): Scope[] {
  return spec.scopes.filter((s) => s === 'user' || ctx.inProject);
}

export async function targetStatus(spec: TargetSpec, ctx: AgentContext): Promise<StatusReport> {
  const shown = scopesShown(spec, ctx);
  const scope = shown.includes(spec.defaultScope) ? spec.defaultScope : (shown[0] ?? spec.defaultScope);
  const warnings: string[] = [];
  if (spec.cli !== null && findOnPath(spec.cli, ctx.env, ctx.platform) === null) warnings.push(`the ${spec.cli} CLI is not on PATH`);
  const scopes: StatusRow[] = await Promise.all(
    shown.map(async (s) => ({ scope: s, mcp: await mcpRow(spec, s, ctx, warnings), rules: await rulesRow(spec, s, ctx, warnings) })),
  );
  const main = scopes.find((r) => r.scope === scope);
  const report = baseReport('ai.status', spec.name, scope, false);
  return {
    ...report,
    mcp: main?.mcp ?? mcpReport('unknown', null, null),
    rules: main?.rules ?? rulesReport('unknown', null),
    warnings,
    scopes,
  };
}
