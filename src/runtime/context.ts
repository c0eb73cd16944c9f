/** Rules for the per-call context {cwd, limit, timeout_ms} shared by every surface. */
import { isAbsolute, resolve } from 'node:path';
import { AhError } from '../errors.js';
import { isDirectory } from '../platform/paths.js';

export interface ResolvedContext {
  cwd: string;
  limit: number | null;
  timeoutMs: number | null;
}

export interface ContextDefaults {
  /** Absolute base directory (startup dir or global --cwd). */
  cwd: string;
  limit: number | null;
  timeoutMs: number | null;
}

const KEYS = new Set(['cwd', 'limit', 'timeout_ms']);
/** The longest timer Node can arm (2^31 − 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

function bad(message: string, hint?: string): AhError {
  return new AhError({ code: 'INVALID_CONTEXT', message, hint, exitCodeHint: 2, operation: 'context' });
}

function positiveInt(value: unknown, name: string, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw bad(`context.${name} must be an integer >= 1`);
  if (value > max) throw bad(`context.${name} must be at most ${max}`);
  return value;
}

/**
 * Validates a raw context object and merges it with the defaults. `requireAbsoluteCwd`: a missing
 * or relative cwd is an error (HTTP transport for cwd-bound commands).
 */
export function resolveContext(raw: unknown, defaults: ContextDefaults, requireAbsoluteCwd: boolean): ResolvedContext {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) throw bad('context must be an object');
  const ctx = (raw ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(ctx)) {
    if (!KEYS.has(key)) throw bad(`context has an unknown key '${key}'`, 'Only cwd, limit and timeout_ms are allowed.');
  }
  let cwd = defaults.cwd;
  if (ctx.cwd !== undefined) {
    if (typeof ctx.cwd !== 'string' || ctx.cwd === '') throw bad('context.cwd must be a non-empty string');
    if (requireAbsoluteCwd && !isAbsolute(ctx.cwd)) {
      throw bad('context.cwd must be an absolute path for this command over HTTP', 'Pass the project directory as an absolute path.');
    }
    cwd = resolve(defaults.cwd, ctx.cwd);
    if (!isDirectory(cwd)) throw bad(`context.cwd is not an existing directory: ${cwd}`);
  } else if (requireAbsoluteCwd) {
    throw bad('context.cwd is required for this command over HTTP', 'Pass the project directory as an absolute context.cwd.');
  }
  const limit = ctx.limit === undefined ? defaults.limit : positiveInt(ctx.limit, 'limit');
  const timeoutMs = ctx.timeout_ms === undefined ? defaults.timeoutMs : positiveInt(ctx.timeout_ms, 'timeout_ms', MAX_TIMEOUT_MS);
  return { cwd, limit, timeoutMs };
}

/**
 * The HTTP working-directory rule, in one place: does this call need an explicit absolute cwd?
 * Commands say whether they are stateless (always, or depending on their arguments).
 */
export function needsExplicitCwd(
  stateless: boolean | ((input: Record<string, unknown>) => boolean) | undefined,
  input: Record<string, unknown>,
): boolean {
  return typeof stateless === 'function' ? !stateless(input) : stateless !== true;
}
