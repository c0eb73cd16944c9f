/**
 * Regular expressions from callers run against untrusted bodies. A pathological pattern could pin
 * the event loop, so each one runs in a small VM context with a time limit (V8 interrupts a
 * running regex when the limit passes).
 */
import { Script, createContext } from 'node:vm';
import { AhError } from '../../../errors.js';

const EXEC = new Script(
  '(() => { const m = new RegExp(pattern, flags).exec(subject); return m === null ? null : Array.from(m, (g) => (g === undefined ? null : String(g))); })()',
);
let sandbox: Record<string, unknown> | undefined;

export const MAX_PATTERN_LENGTH = 4096;
const DEFAULT_LIMIT_MS = 1000;

/** Runs `pattern` once over `subject`; returns the groups (null when nothing matched). */
export function safeExec(pattern: string, subject: string, deadline: number, flags = ''): (string | null)[] | null {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new AhError({ code: 'INVALID_ARGUMENT', message: `regex is longer than ${MAX_PATTERN_LENGTH} characters`, domain: 'http' });
  }
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    throw new AhError({ code: 'INVALID_ARGUMENT', message: 'invalid regular expression', cause: (error as Error).message, domain: 'http' });
  }
  sandbox ??= createContext(Object.create(null) as Record<string, unknown>);
  sandbox.pattern = pattern;
  sandbox.subject = subject;
  sandbox.flags = flags;
  const left = Number.isFinite(deadline) ? deadline - Date.now() : DEFAULT_LIMIT_MS;
  const timeout = Math.max(1, Math.min(DEFAULT_LIMIT_MS, left));
  try {
    return EXEC.runInContext(sandbox, { timeout }) as (string | null)[] | null;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new AhError({
        code: 'INVALID_ARGUMENT',
        message: `regular expression ran longer than ${timeout} ms and was stopped`,
        hint: 'Simplify the pattern (avoid nested quantifiers).',
        domain: 'http',
      });
    }
    throw error;
  } finally {
    sandbox.subject = undefined;
  }
}
