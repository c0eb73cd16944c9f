/** Runs `ah ai uninstall` for one target or `all` (every agent that looks present). */
import { AhError } from '../errors.js';
import type { TargetPlan } from './plan.js';
import { baseReport, changedBy } from './reports.js';
import { type AiDeps, type RunOutcome, summaryOf } from './run-install.js';
import { selectTargets, type TargetArg } from './select.js';
import { executeSteps } from './steps.js';
import type { Report, Scope } from './types.js';
import { planUninstall } from './uninstall.js';

function asAhError(error: unknown): AhError {
  if (error instanceof AhError) return error;
  return new AhError({
    code: 'AI_UNINSTALL_FAILED',
    message: error instanceof Error ? error.message : String(error),
    operation: 'ai.uninstall',
  });
}

export async function runUninstall(deps: AiDeps, target: TargetArg, scope: Scope | undefined): Promise<RunOutcome> {
  const { specs, skipped } = selectTargets(target, deps.ctx, scope);
  const all = target === 'all';
  const plans: TargetPlan[] = [];
  const failed: Report[] = [];
  let error: AhError | null = null;
  const fail = (report: Report, e: unknown) => {
    if (!all) throw e;
    error ??= asAhError(e);
    report.warnings.push(`${asAhError(e).code}: ${asAhError(e).message}`);
  };
  for (const spec of specs) {
    try {
      plans.push(await planUninstall(spec, deps.ctx, scope));
    } catch (e) {
      const r = baseReport('ai.uninstall', spec.name, scope ?? spec.defaultScope, deps.ctx.dryRun);
      fail(r, e);
      failed.push(r);
    }
  }
  const summary = summaryOf(plans, null);
  if (!deps.ctx.dryRun) {
    for (const [i, planned] of plans.entries()) {
      let p = planned;
      try {
        // An earlier target may have cleaned a shared file already (AGENTS.md, .mcp.json).
        if (i > 0) plans[i] = p = await planUninstall(p.spec, deps.ctx, scope);
        await executeSteps(deps.ctx, p.steps);
        p.report.changed = changedBy(p.report);
      } catch (e) {
        fail(p.report, e);
      }
    }
  }
  return { reports: [...plans.map((p) => p.report), ...failed], summary, warnings: skipped, error };
}
