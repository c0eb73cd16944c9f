/**
 * Runs `ah ai install` for one target or `all`: the endpoint (stdio, checked URL, or the managed
 * service's), one plan per target, the summary of every command and file change, then (unless a
 * dry run or a declined confirmation) the managed service and the steps, target by target.
 */
import type { CatalogView } from '../catalog/descriptor.js';
import { AhError } from '../errors.js';
import type { AgentContext } from './context.js';
import { type InstallChoice, planInstall } from './install.js';
import { ensureManaged, type ManagedInput, type ManagedPlan, planManaged } from './managed.js';
import type { TargetPlan } from './plan.js';
import { checkReadiness } from './readiness.js';
import { baseReport, changedBy } from './reports.js';
import { rulesBody } from './rules-content.js';
import { selectTargets, type TargetArg } from './select.js';
import { describeSteps, executeSteps } from './steps.js';
import type { Report, Scope, Transport } from './types.js';
import { checkMcpUrl, DEFAULT_HTTP_URL } from './url.js';

export interface AiDeps {
  ctx: AgentContext;
  catalog: CatalogView;
  managed: ManagedInput;
}

export interface InstallRequest {
  target: TargetArg;
  scope: Scope | undefined;
  transport: Transport;
  url: string | undefined;
  mcp: boolean;
  rules: boolean;
}

export interface RunOutcome {
  reports: Report[];
  /** Every command and file change, as shown by --dry-run and the interactive summary. */
  summary: string[];
  /** Warnings that belong to no one target (e.g. agents `all` left out). */
  warnings: string[];
  /** The first failure under `all` (the others are in the reports' warnings). */
  error: AhError | null;
}

function asAhError(error: unknown): AhError {
  if (error instanceof AhError) return error;
  return new AhError({
    code: 'AI_INSTALL_FAILED',
    message: error instanceof Error ? error.message : String(error),
    operation: 'ai.install',
  });
}

async function endpointFor(
  deps: AiDeps,
  req: InstallRequest,
): Promise<{ endpoint: InstallChoice['endpoint']; managed: ManagedPlan | null; warnings: string[] }> {
  if (req.transport === 'stdio' || !req.mcp) return { endpoint: { transport: 'stdio' }, managed: null, warnings: [] };
  if (req.transport === 'http') {
    const url = checkMcpUrl(req.url ?? DEFAULT_HTTP_URL);
    const problem = await checkReadiness(url);
    const warnings =
      problem === null
        ? []
        : [`${problem}: start the server ('ah mcp serve --transport http' or 'ah mcp service install') before the agent connects`];
    return { endpoint: { transport: 'http', url }, managed: null, warnings };
  }
  const managed = await planManaged(deps.managed);
  const url = managed.endpoint;
  return { endpoint: { transport: 'http', url }, managed, warnings: [] };
}

function managedLines(plan: ManagedPlan | null): string[] {
  if (plan === null || plan.todo === 'none') return [];
  return [
    plan.todo === 'install'
      ? `would install and start the managed MCP service (${plan.endpoint})`
      : `would start the managed MCP service (${plan.endpoint})`,
  ];
}

export function summaryOf(plans: readonly TargetPlan[], managed: ManagedPlan | null): string[] {
  const lines = managedLines(managed);
  for (const p of plans) {
    const steps = describeSteps(p.steps);
    lines.push(`${p.spec.name} (${p.report.scope}): ${steps.length === 0 ? 'nothing to change' : ''}`.trimEnd());
    lines.push(...steps.map((l) => `  ${l}`));
  }
  return lines;
}

function skipAll(report: Report): void {
  if (report.mcp.action !== 'unchanged') report.mcp.action = 'skipped';
  if (report.rules.action !== 'unchanged') report.rules.action = 'skipped';
}

export async function runInstall(
  deps: AiDeps,
  req: InstallRequest,
  confirm: ((summary: string[]) => Promise<boolean>) | null,
): Promise<RunOutcome> {
  const { specs, skipped } = selectTargets(req.target, deps.ctx, req.scope);
  const all = req.target === 'all';
  const { endpoint, managed, warnings } = await endpointFor(deps, req);
  if (managed?.state === 'unusable') await ensureManaged(deps.managed, managed);
  const body = rulesBody(deps.catalog);
  const choice: InstallChoice = { scope: req.scope, endpoint, mcp: req.mcp, rules: req.rules };
  const plans: TargetPlan[] = [];
  let error: AhError | null = null;
  const failed: Report[] = [];
  for (const spec of specs) {
    try {
      const plan = await planInstall(spec, deps.ctx, choice, body);
      plan.report.warnings.push(...warnings);
      plans.push(plan);
    } catch (e) {
      if (!all) throw e;
      error ??= asAhError(e);
      const r = baseReport('ai.install', spec.name, req.scope ?? spec.defaultScope, deps.ctx.dryRun);
      r.warnings.push(`${asAhError(e).code}: ${asAhError(e).message}`);
      failed.push(r);
    }
  }
  const summary = summaryOf(plans, managed);
  const reports = () => [...plans.map((p) => p.report), ...failed];
  const managedAction =
    managed === null ? null : managed.todo === 'none' ? 'already_running' : managed.todo === 'start' ? 'started' : 'installed';
  if (managed !== null && managedAction !== null)
    for (const p of plans) p.report.managed_service = { action: managedAction, endpoint: managed.endpoint };
  if (deps.ctx.dryRun) return { reports: reports(), summary, warnings: skipped, error };
  if (confirm !== null && !(await confirm(summary))) {
    for (const p of plans) {
      skipAll(p.report);
      p.report.managed_service = null;
    }
    return { reports: reports(), summary, warnings: skipped, error };
  }
  if (managed !== null) {
    const done = await ensureManaged(deps.managed, managed);
    for (const p of plans) p.report.managed_service = done;
  }
  for (const [i, planned] of plans.entries()) {
    let p = planned;
    try {
      // Under `all`, an earlier target may have written a shared file (AGENTS.md, .mcp.json): plan
      // again so this report says what this run really did. A confirmed plan is kept as shown.
      if (all && confirm === null && i > 0) {
        p = await planInstall(p.spec, deps.ctx, choice, body);
        p.report.warnings.push(...warnings);
        p.report.managed_service = planned.report.managed_service;
        plans[i] = p;
      }
      await executeSteps(deps.ctx, p.steps);
      p.report.changed = changedBy(p.report);
    } catch (e) {
      if (!all) throw e;
      error ??= asAhError(e);
      p.report.warnings.push(`${asAhError(e).code}: ${asAhError(e).message}`);
      skipAll(p.report);
    }
  }
  return { reports: reports(), summary, warnings: skipped, error };
}
