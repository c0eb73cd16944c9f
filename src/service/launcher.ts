/**
 * The managed-service launcher: the process the Task Scheduler action runs on Windows. Task
 * Scheduler's own retries stay off (the issue asks for that, and they would fight a second retry
 * loop), so relaunching after a crash lives here: the server is started, and after a nonzero exit
 * it is started again at most three times, one spacing apart. A clean exit (control shutdown)
 * ends the launcher with 0; the last failure's code ends it otherwise. While it waits between
 * attempts the task stays running with no server, which status reports as restart_backoff.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type AttachedChild, spawnAttached } from '../platform/exec.js';
import { MAX_RELAUNCHES } from './definition.js';

const LAUNCHER_ENV = 'AH_MANAGED_LAUNCHER';

interface LauncherOptions {
  program: string;
  args: readonly string[];
  /** Environment for the server (the launcher marker already removed). */
  env: Readonly<Record<string, string | undefined>>;
  spacingMs: number;
  /** Injectable for tests; defaults to the real child launcher. */
  start?: (program: string, args: readonly string[], env: Readonly<Record<string, string | undefined>>) => AttachedChild;
  /** Fires when the launcher should stop (SIGINT/SIGTERM): no further relaunch. */
  stop?: AbortSignal;
}

/** Runs the server under the relaunch policy; resolves to the launcher's exit code. */
export async function superviseServer(options: LauncherOptions): Promise<number> {
  const start = options.start ?? spawnAttached;
  let code = 1;
  for (let attempt = 0; attempt <= MAX_RELAUNCHES; attempt += 1) {
    if (attempt > 0) {
      // An abort ends the wait early (the rejection is the abort itself, checked just below).
      await sleep(options.spacingMs, undefined, { signal: options.stop }).catch(() => undefined);
      if (options.stop?.aborted) return code;
    }
    const child = start(options.program, options.args, options.env);
    const forward = () => child.signal('SIGTERM');
    options.stop?.addEventListener('abort', forward, { once: true });
    code = await child.exited;
    options.stop?.removeEventListener('abort', forward);
    if (code === 0 || options.stop?.aborted) return code;
  }
  return code;
}

/** The launcher entry: re-runs this same `ah mcp serve …` command line without the marker. */
export async function runLauncher(env: Readonly<Record<string, string | undefined>>, spacingSec: number): Promise<number> {
  const { [LAUNCHER_ENV]: _marker, ...serverEnv } = env;
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await superviseServer({
      program: process.execPath,
      args: process.argv.slice(1),
      env: serverEnv,
      spacingMs: spacingSec * 1000,
      stop: stop.signal,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
