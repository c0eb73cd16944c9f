/** Turns a target argument into the specs to act on (`all`: every agent that looks present here). */
import { AhError } from '../errors.js';
import type { AgentContext } from './context.js';
import type { TargetSpec } from './target.js';
import { TARGET_SPECS } from './targets/index.js';
import { TARGETS, type Scope, type TargetName } from './types.js';

export type TargetArg = TargetName | 'all';

export function isTargetArg(value: string): value is TargetArg {
  return value === 'all' || (TARGETS as readonly string[]).includes(value);
}

/** For `all`, agents that lack the asked scope are left out (and named in `skipped`). */
export function selectTargets(arg: TargetArg, ctx: AgentContext, scope: Scope | undefined): { specs: TargetSpec[]; skipped: string[] } {
  if (arg !== 'all') return { specs: [TARGET_SPECS[arg]], skipped: [] };
  const present = TARGETS.map((t) => TARGET_SPECS[t]).filter((s) => s.detect(ctx));
  const specs = present.filter((s) => scope === undefined || s.scopes.includes(scope));
  const skipped = present.filter((s) => !specs.includes(s)).map((s) => `${s.name} has no '${scope}' scope and was left out`);
  if (present.length === 0) {
    throw new AhError({
      code: 'AI_NO_AGENT_FOUND',
      message: 'no supported agent was found here (no agent CLI on PATH and no agent config directory)',
      hint: `Name the agent: ah ai install ${TARGETS.join('|')}.`,
      operation: 'ai.install',
    });
  }
  return { specs, skipped };
}

export function allSpecs(): TargetSpec[] {
  return TARGETS.map((t) => TARGET_SPECS[t]);
}
