/**
 * Per-user locks of the managed service: `lifecycle.lock` (one lifecycle mutation at a time) and
 * `instance.lock` (the lease of the one managed server process). They are the same lock as every
 * other persisted file uses (platform/lock.ts; why that one is in its header): held while the
 * file exists, a dead holder's lock taken over atomically, so a server killed with SIGKILL never
 * wedges the next one.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { acquireLock, type HeldLock } from '../platform/lock.js';

/** Takes the lock, waiting at most `waitSeconds` (0: try once); null when someone else holds it. */
export async function tryLock(path: string, waitSeconds: number): Promise<HeldLock | null> {
  mkdirSync(dirname(path), { recursive: true });
  return acquireLock(path, { timeoutMs: waitSeconds * 1000 });
}
