/**
 * A small cross-process lock: an exclusive sidecar file `<target>.lock` holding the owner's pid.
 * Waiting is bounded; a lock whose owner is dead (or that is far older than any holder keeps one)
 * is taken over, so a crashed writer never wedges later ones.
 */
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { AhError } from '../errors.js';

const STALE_AFTER_MS = 10_000;

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isStale(lockPath: string): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    const pid = Number.parseInt(text.trim(), 10);
    if (text.trim() !== '' && !alive(pid)) return true;
    return Date.now() - info.mtimeMs > STALE_AFTER_MS;
  } catch {
    // Vanished between attempts: not stale, just retry.
    return false;
  }
}

export interface LockOptions {
  /** Longest wait for the lock before giving up. */
  timeoutMs: number;
  /** Error code on timeout. */
  code?: string;
}

/** Runs `fn` while holding the lock for `target`. Throws PERSISTENCE_LOCK_TIMEOUT (or `code`). */
export async function withFileLock<T>(target: string, options: LockOptions, fn: () => Promise<T>): Promise<T> {
  const lockPath = `${target}.lock`;
  const started = Date.now();
  let delay = 2;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx');
      try {
        await handle.writeFile(String(process.pid));
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw error;
      if (await isStale(lockPath)) {
        await unlink(lockPath).catch(() => undefined);
        continue;
      }
      if (Date.now() - started >= options.timeoutMs) {
        throw new AhError({
          code: options.code ?? 'PERSISTENCE_LOCK_TIMEOUT',
          message: `timed out after ${options.timeoutMs} ms waiting for the lock on ${target}`,
          cause: `another process holds ${lockPath}`,
          hint: 'Retry in a moment; if no other ah process is running, delete the .lock file.',
          retryable: true,
          operation: 'lock',
        });
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 25);
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}
