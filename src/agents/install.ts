/**
 * `ah ai install`: probe (read-only) → plan → (dry run: describe | run: execute). An identical
 * registration and an identical rules block plan no step at all, so a repeated install runs no
 * agent CLI and writes no file.
 */
import type { AgentContext } from './context.js';
import { stdioLaunch } from './context.js';
import { describeLaunch, sameLaunch } from './formats.js';
import { scopeFor, type TargetPlan } from './plan.js';
import { baseReport, mcpReport, rulesReport } from './reports.js';
import { planRulesInstall } from './rules.js';
import type { TargetSpec } from './target.js';
import type { Launch, Scope } from './types.js';

export interface InstallChoice {
  scope: Scope | undefined;
  /** stdio, or an HTTP endpoint (the --url, or the managed service's). */
  endpoint: { transport: 'stdio' } | { transport: 'http'; url: string };
  mcp: boolean;
  rules: boolean;
}

function desiredLaunch(spec: TargetSpec, ctx: AgentContext, choice: InstallChoice): Launch {
  if (choice.endpoint.transport === 'http') return { transport: 'http', url: choice.endpoint.url };
  return stdioLaunch(ctx, { desktop: spec.name === 'cursor' || spec.name === 'copilot' });
}

export async function planInstall(spec: TargetSpec, ctx: AgentContext, choice: InstallChoice, rulesBody: string): Promise<TargetPlan> {
  const scope = scopeFor(spec, choice.scope, 'ai.install');
  const report = baseReport('ai.install', spec.name, scope, ctx.dryRun);
  const steps: TargetPlan['steps'] = [];
  report.warnings.push(...(spec.notes?.(scope) ?? []));
  if (choice.mcp) {
    // The probe needs no agent CLI: an identical registration is `unchanged` even where the CLI is missing.
    const reader = spec.mcpSite(scope, ctx, 'read');
    const desired = desiredLaunch(spec, ctx, choice);
    if (reader === null) {
      report.warnings.push(`${spec.name} has no MCP registration at ${scope} scope`);
    } else {
      const seen = await reader.probe();
      if (sameLaunch(seen.current, desired) && !seen.legacy) {
        report.mcp = mcpReport('unchanged', reader, desired);
      } else {
        const site = spec.mcpSite(scope, ctx, 'change') ?? reader;
        const probe = await site.probe();
        if (probe.present) {
          report.warnings.push(
            `replacing the previous aihelper registration (${probe.current ? describeLaunch(probe.current) : 'an entry ah does not recognise'})`,
          );
        }
        if (probe.legacy) report.warnings.push("removing the legacy 'ah' registration");
        steps.push(...site.install(desired, probe));
        report.mcp = mcpReport(probe.present ? 'updated' : 'installed', site, desired);
      }
    }
  }
  if (choice.rules) {
    const file = spec.rulesFile(scope, ctx);
    if (file === null) {
      report.warnings.push(`${spec.name} has no rules file ah can edit at ${scope} scope`);
    } else {
      const plan = await planRulesInstall(file, rulesBody);
      report.rules = rulesReport(plan.action, file.path);
      steps.push(...plan.steps);
    }
  }
  return { spec, report, steps };
}
