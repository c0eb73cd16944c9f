/** Runs `ah ai status` for one target or every target, all checked at once. */
import type { AgentContext } from './context.js';
import { allSpecs, type TargetArg } from './select.js';
import { targetStatus } from './status.js';
import { TARGET_SPECS } from './targets/index.js';
import type { StatusReport } from './types.js';

export function runStatus(ctx: AgentContext, target: TargetArg): Promise<StatusReport[]> {
  const specs = target === 'all' ? allSpecs() : [TARGET_SPECS[target]];
  return Promise.all(specs.map((spec) => targetStatus(spec, ctx)));
}
