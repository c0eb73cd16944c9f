/**
 * Synchronous work on the calling thread that a deadline or Ctrl-C can still stop, even inside
 * one regex match (which never returns to the event loop, so no timer or signal handler could run):
 * node:vm stops a script from a watchdog thread (`timeout`, `breakOnSigint`), and the script here
 * does nothing but call back into the work. About 0.1 ms per call, so callers run slices of work.
 */
import { type Context, createContext, Script } from 'node:vm';

const CALL = new Script('work()');
/** One sandbox per thread, created on first use (1 ms); it holds only the work of the call in progress. */
let sandbox: (Context & { work: (() => unknown) | null }) | null = null;

export type Interrupted = 'timeout' | 'sigint';

/** Runs `work`; 'timeout' when it was stopped at `deadline` (epoch ms), 'sigint' on Ctrl-C. */
export function runInterruptible<T>(work: () => T, deadline: number): { value: T } | Interrupted {
  sandbox ??= createContext({ work: null }) as Context & { work: null };
  const remaining = deadline - Date.now();
  if (remaining <= 0) return 'timeout';
  // vm takes at most 2^32 - 1 ms; a deadline further away than ~24 days is as good as none.
  sandbox.work = work;
  try {
    const value = CALL.runInContext(sandbox, {
      breakOnSigint: true,
      ...(remaining < 2 ** 31 ? { timeout: Math.ceil(remaining) } : {}),
    }) as T;
    return { value };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
    if (code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') return 'sigint';
    throw error;
  } finally {
    sandbox.work = null;
  }
}
