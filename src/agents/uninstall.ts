/** `ah ai uninstall`: removes our registration (and the legacy one) and strips the rules block; both halves idempotent. */
import type { AgentContext } from './context.js';
import { scopeFor, type TargetPlan } from './plan.js';
import { baseReport, mcpReport, rulesReport } from './reports.js';
import { planRulesUninstall } from './rules.js';
import type { TargetSpec } from './target.js';
import type { Scope } from './types.js';

export async function planUninstall(spec: TargetSpec, ctx: AgentContext, scopeArg: Scope | undefined): Promise<TargetPlan> {
  const scope = scopeFor(spec, scopeArg, 'ai.uninstall');
  const report = baseReport('ai.uninstall', spec.name, scope, ctx.dryRun);
  const steps: TargetPlan['steps'] = [];
  const reader = spec.mcpSite(scope, ctx, 'read');
  if (reader !== null) {
    const seen = await reader.probe();
    if (!seen.present && !seen.legacy) {
      report.mcp = mcpReport('not_present', reader, null);
    } else {
      // Only a real removal needs the agent's CLI.
      const site = spec.mcpSite(scope, ctx, 'change') ?? reader;
      const probe = await site.probe();
      if (probe.legacy) report.warnings.push(`removing the legacy 'ah' registration`);
      steps.push(...site.uninstall(probe));
      report.mcp = mcpReport('removed', site, probe.current);
    }
  }
  const file = spec.rulesFile(scope, ctx);
  if (file !== null) {
    const plan = await planRulesUninstall(file);
    report.rules = rulesReport(plan.action, file.path);
    steps.push(...plan.steps);
  }
  return { spec, report, steps };
}
