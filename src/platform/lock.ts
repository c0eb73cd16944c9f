/**
 * The one cross-process lock (plugins.json, the vault, the managed service's lifecycle and instance
 * leases). A lock is a file that exists only while held, created atomically with its owner's
 * identity already inside (a private temp file hard-linked into place: link fails with EEXIST, so
 * exactly one process creates it, and no one ever sees an empty lock).
 *
 * Why this and not flock(1): it needs no helper program (flock(1) is util-linux only, absent on
 * macOS and Windows), costs no child process per acquisition, and works the same on every
 * platform. What made the old pid-file lock unsound is fixed here:
 * - a reused pid: the owner is named by pid + start time + boot id (Linux /proc), not pid alone;
 * - check-then-unlink takeover, which let two waiters both take over a dead owner's lock: a
 *   takeover is itself serialized by a claim lock named after the stale lock's exact content
 *   (every lock carries a fresh nonce), and the winner re-reads the lock under that claim and then
 *   renames its own lock over it (rename replaces atomically). Nobody else can change a lock whose
 *   owner is dead, so the re-read stays true until the rename.
 * - a claimant that dies while holding a claim: the claim is a lock like any other and is taken
 *   over the same way, one level deeper (bounded).
 * Liveness errs towards "alive" (another host, an unreadable pid): the worst outcome is a bounded
 * wait that ends in a timeout error naming the lock file, never two holders.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { AhError } from '../errors.js';
import { bootId, pidAlive, processStartTime } from './processes.js';
import { readTextIfPresent } from './read-text.js';

/** A lock file that cannot be parsed (written by hand, another tool) is stale after this age. */
const UNPARSABLE_STALE_MS = 10_000;
/** Claims of claims: one level per process that died in the middle of a takeover. */
const MAX_TAKEOVER_DEPTH = 4;

interface Owner {
  pid: number;
  start?: string | null;
  boot?: string | null;
  host?: string;
  nonce?: string;
}

export interface HeldLock {
  /** Removes the lock if it is still ours. Idempotent, synchronous (safe in exit paths). */
  release(): void;
}

function ownToken(): string {
  const owner: Owner = {
    pid: process.pid,
    start: processStartTime(process.pid),
    boot: bootId(),
    host: hostname(),
    nonce: randomBytes(8).toString('hex'),
  };
  return JSON.stringify(owner);
}

/** Names one generation of a lock by its content (every lock carries a nonce): its takeover claim's suffix. */
export function lockGeneration(content: string): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}

function parseOwner(text: string): Owner | null {
  const trimmed = text.trim();
  // The previous format held a bare pid.
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const parsed = JSON.parse(trimmed) as Owner;
    return Number.isInteger(parsed?.pid) ? parsed : null;
  } catch {
    return null;
  }
}

/** False only when we are sure the owner is gone. */
function ownerAlive(owner: Owner): boolean {
  if (owner.host !== undefined && owner.host !== hostname()) return true;
  const boot = bootId();
  if (owner.boot && boot && owner.boot !== boot) return false;
  if (!pidAlive(owner.pid)) return false;
  if (owner.start) {
    const start = processStartTime(owner.pid);
    if (start !== null && start !== owner.start) return false;
  }
  return true;
}

function heldLock(path: string, token: string): HeldLock {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      try {
        if (readFileSync(path, 'utf8') === token) unlinkSync(path);
      } catch {
        // Already gone.
      }
    },
  };
}

async function isStale(lockPath: string, content: string): Promise<boolean> {
  const owner = parseOwner(content);
  if (owner) return !ownerAlive(owner);
  const info = await stat(lockPath).catch(() => null);
  return info !== null && Date.now() - info.mtimeMs > UNPARSABLE_STALE_MS;
}

type Attempt = { kind: 'held'; lock: HeldLock } | { kind: 'busy' } | { kind: 'retry' };

/** One non-waiting attempt: create the lock, or take it over from a dead owner. */
async function attempt(lockPath: string, depth: number): Promise<Attempt> {
  const token = ownToken();
  const temp = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, token, { flag: 'wx', mode: 0o600 });
  try {
    try {
      await link(temp, lockPath);
      return { kind: 'held', lock: heldLock(lockPath, token) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const content = await readTextIfPresent(lockPath);
    if (content === null) return { kind: 'retry' };
    if (!(await isStale(lockPath, content)) || depth >= MAX_TAKEOVER_DEPTH) return { kind: 'busy' };
    const claim = await attempt(`${lockPath}.${lockGeneration(content)}`, depth + 1);
    if (claim.kind !== 'held') return claim;
    try {
      // Under the claim only we may replace this generation of the lock; re-check it is unchanged.
      if ((await readTextIfPresent(lockPath)) !== content) return { kind: 'retry' };
      await rename(temp, lockPath);
      return { kind: 'held', lock: heldLock(lockPath, token) };
    } finally {
      claim.lock.release();
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Takes the lock file `lockPath`, waiting at most `timeoutMs` (0: a single attempt); null when it stays held. */
export async function acquireLock(lockPath: string, options: { timeoutMs: number }): Promise<HeldLock | null> {
  const started = Date.now();
  let delay = 2;
  for (;;) {
    const result = await attempt(lockPath, 0);
    if (result.kind === 'held') return result.lock;
    if (result.kind === 'retry') continue;
    if (Date.now() - started >= options.timeoutMs) return null;
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 25);
  }
}

/** True when a live owner holds `lockPath` right now. */
export async function lockHeld(lockPath: string): Promise<boolean> {
  const content = await readTextIfPresent(lockPath).catch(() => null);
  if (content === null) return false;
  return !(await isStale(lockPath, content));
}

/**
 * Runs `fn` while holding the lock `<target>.lock`, waiting at most `timeoutMs` for it. Throws
 * PERSISTENCE_LOCK_TIMEOUT (or `code`) when the wait runs out.
 */
export async function withFileLock<T>(target: string, options: { timeoutMs: number; code?: string }, fn: () => Promise<T>): Promise<T> {
  const lockPath = `${target}.lock`;
  const lock = await acquireLock(lockPath, options);
  if (!lock) {
    throw new AhError({
      code: options.code ?? 'PERSISTENCE_LOCK_TIMEOUT',
      message: `timed out after ${options.timeoutMs} ms waiting for the lock on ${target}`,
      cause: `another process holds ${lockPath}`,
      hint: 'Retry in a moment; if no other ah process is running, delete the .lock file.',
      retryable: true,
      operation: 'lock',
    });
  }
  try {
    return await fn();
  } finally {
    lock.release();
  }
}
