/**
 * Per-user OS locks for the managed service: `lifecycle.lock` (one lifecycle mutation at a time)
 * and `instance.lock` (one managed server process).
 *
 * Why flock(1): Node has no flock(2), and O_EXCL lock files with a pid inside are unsound here
 * (a pid can be reused, a crash leaves the file behind, and liveness checks race). A kernel flock
 * is released by the kernel when its holder dies. We hold it in a tiny `flock` child whose command
 * waits for EOF on a pipe from us, so the lock lives exactly as long as this process (or until
 * release()), even if we are killed with SIGKILL. The lock files are permanent anchors and are
 * never deleted.
 *
 * Windows has no flock(1): there an exclusive lock file stands in (untested on real Windows).
 */
import { mkdirSync, openSync, closeSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { holdWhileAlive } from '../platform/exec.js';
import type { Env } from '../platform/paths.js';

/** flock's exit status when the lock is held by someone else (our choice via -E). */
const CONFLICT = 75;

export interface HeldLock {
  release(): void;
}

export interface LockOptions {
  env: Env;
  /** How long to wait for the lock (seconds; 0 = try once). */
  waitSeconds: number;
  platform?: NodeJS.Platform;
}

/** Takes the lock or returns null when someone else holds it. Throws when flock cannot run. */
export async function tryLock(path: string, options: LockOptions): Promise<HeldLock | null> {
  mkdirSync(dirname(path), { recursive: true });
  if ((options.platform ?? process.platform) === 'win32') return tryLockFile(path);
  const wait = options.waitSeconds > 0 ? ['-w', String(options.waitSeconds)] : ['-n'];
  const args = [...wait, '-E', String(CONFLICT), '-o', path, 'sh', '-c', 'echo locked; exec cat >/dev/null'];
  const held = holdWhileAlive('flock', args, options.env);
  const line = await held.firstLine;
  if (line === 'locked') return { release: () => held.release() };
  const code = await held.exited;
  if (code === CONFLICT) return null;
  throw new Error(`flock(1) could not lock ${path} (exit ${code}); is util-linux installed?`);
}

/** True when another process holds the lock right now (probe: take it for an instant). */
export async function isLocked(path: string, options: { env: Env; platform?: NodeJS.Platform }): Promise<boolean> {
  const lock = await tryLock(path, { ...options, waitSeconds: 0 });
  lock?.release();
  return lock === null;
}

function tryLockFile(path: string): HeldLock | null {
  const marker = `${path}.held`;
  try {
    const fd = openSync(marker, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
  } catch {
    return null;
  }
  return {
    release: () => {
      try {
        unlinkSync(marker);
      } catch {
        // Already gone.
      }
    },
  };
}
