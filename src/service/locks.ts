/**
 * Per-user locks of the managed service: `lifecycle.lock` (one lifecycle mutation at a time) and
 * `instance.lock` (the lease of the one managed server process). They are the same lock as every
 * other persisted file uses (platform/lock.ts; why that one is in its header): held while the
 * file exists, a dead holder's lock taken over atomically, so a server killed with SIGKILL never
 * wedges the next one.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { acquireLock, type HeldLock, lockHeld } from '../platform/lock.js';

export type { HeldLock };

export interface LockOptions {
  /** How long to wait for the lock (seconds; 0 = try once). */
  waitSeconds: number;
}

/** Takes the lock or returns null when someone else holds it. */
export async function tryLock(path: string, options: LockOptions): Promise<HeldLock | null> {
  mkdirSync(dirname(path), { recursive: true });
  return acquireLock(path, { timeoutMs: options.waitSeconds * 1000 });
}

/** True when a live process holds the lock right now. */
export function isLocked(path: string): Promise<boolean> {
  return lockHeld(path);
}
