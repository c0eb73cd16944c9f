/**
 * A small cross-process lock: an exclusive sidecar file `<target>.lock` holding the owner's pid.
 * Waiting is bounded; a lock whose owner is dead (or that is far older than any holder keeps one)
 * is taken over, so a crashed writer never wedges later ones.
 */
import { randomBytes } from 'node:crypto';
import { link, readFile, stat, unlink, writeFile } from 'node:fs/promises';
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

/** The stale lock's content when its owner is gone (or it is far too old), else null. */
async function staleContent(lockPath: string): Promise<string | null> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    const pid = Number.parseInt(text.trim(), 10);
    if (text.trim() !== '' && !alive(pid)) return text;
    return Date.now() - info.mtimeMs > STALE_AFTER_MS ? text : null;
  } catch {
    // Vanished between attempts: not stale, just retry.
    return null;
  }
}

/**
 * Creates the lock file with the pid already inside: the pid goes into a private temp file that is
 * then hard-linked into place (atomic, fails with EEXIST). A holder killed at any point therefore
 * never leaves an empty lock file that only ages out.
 */
async function tryCreate(lockPath: string): Promise<boolean> {
  const temp = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, String(process.pid), { flag: 'wx' });
  try {
    await link(temp, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
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
    if (await tryCreate(lockPath)) break;
    const stale = await staleContent(lockPath);
    if (stale !== null) {
      // Remove it only if it still holds what we judged stale (another waiter may have replaced it).
      const now = await readFile(lockPath, 'utf8').catch(() => null);
      if (now === stale) await unlink(lockPath).catch(() => undefined);
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
  try {
    return await fn();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}
