/** Safety metadata every command declares; surfaces derive MCP annotations and risk meta from it. */
export const EFFECT_KINDS = [
  'filesystem_read',
  'filesystem_write',
  'filesystem_delete',
  'process_spawn',
  'network_read',
  'network_write',
  'configuration_read',
  'configuration_write',
  'external_read',
  'external_write',
  /** State held by the running server process (background jobs). */
  'process_state',
] as const;
export type EffectKind = (typeof EFFECT_KINDS)[number];

export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const REVERSIBILITY = ['yes', 'no', 'unknown'] as const;
export type Reversibility = (typeof REVERSIBILITY)[number];

export interface Effects {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
  effects: readonly EffectKind[];
  risk: RiskLevel;
  /** One sentence telling an agent what running the command can change. */
  impact: string;
  reversibility: Reversibility;
}

/** Returns the problems with an effects block (empty when complete). */
export function effectsProblems(effects: Partial<Effects> | undefined): string[] {
  if (!effects || typeof effects !== 'object') return ['effects are missing'];
  const problems: string[] = [];
  for (const key of ['readOnly', 'destructive', 'idempotent', 'openWorld'] as const) {
    if (typeof effects[key] !== 'boolean') problems.push(`effects.${key} must be a boolean`);
  }
  if (!Array.isArray(effects.effects)) problems.push('effects.effects must be a list');
  else {
    for (const kind of effects.effects) {
      if (!(EFFECT_KINDS as readonly string[]).includes(kind)) problems.push(`unknown effect kind '${String(kind)}'`);
    }
  }
  if (!(RISK_LEVELS as readonly string[]).includes(effects.risk as string)) problems.push('effects.risk must be low|medium|high|critical');
  if (typeof effects.impact !== 'string' || effects.impact.trim() === '') problems.push('effects.impact must be a sentence');
  if (!(REVERSIBILITY as readonly string[]).includes(effects.reversibility as string)) {
    problems.push('effects.reversibility must be yes|no|unknown');
  }
  if (effects.readOnly === true && effects.destructive === true) problems.push('a read-only command cannot be destructive');
  return problems;
}
