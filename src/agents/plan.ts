/** One target's planned change: the report it will produce and the steps that produce it. */
import { AhError } from '../errors.js';
import type { Step } from './steps.js';
import type { TargetSpec } from './target.js';
import type { Report, Scope } from './types.js';

export interface TargetPlan {
  spec: TargetSpec;
  report: Report;
  steps: Step[];
}

/** The scope asked for, or the target's default; AI_SCOPE_UNSUPPORTED when the target has no such scope. */
export function scopeFor(spec: TargetSpec, scope: Scope | undefined, operation: string): Scope {
  const chosen = scope ?? spec.defaultScope;
  if (!spec.scopes.includes(chosen)) {
    throw new AhError({
      code: 'AI_SCOPE_UNSUPPORTED',
      message: `${spec.name} has no '${chosen}' scope`,
      hint: `Use --scope ${spec.scopes.join(' or ')}.`,
      operation,
    });
  }
  return chosen;
}
