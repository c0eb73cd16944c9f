/**
 * Write-temp, fsync, rename: readers see the old file or the new one, never half of one. A writer
 * killed mid-write leaves its temp file behind (for the vault, an encrypted snapshot that may still
 * hold records deleted since), so writers sweep the temp files of dead writers (sweepStaleTemps).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { lockGeneration } from './lock.js';
import { pidAlive } from './processes.js';
import { escapeRegex } from './text.js';

/** A temp file older than this is swept even when its pid looks alive (a reused pid, another host). */
const TEMP_MAX_AGE_MS = 10 * 60 * 1000;

export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'w', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * Removes what dead writers left next to `path`: writeFileAtomic temp files and, when `lockPath`
 * is given, the lock's own temp files and takeover claims of lock generations that are over.
 * Call it while holding the file's lock. Never throws: a sweep is housekeeping.
 */
export async function sweepStaleTemps(path: string, lockPath?: string): Promise<void> {
  const dir = dirname(path);
  const patterns = [new RegExp(`^\\.${escapeRegex(basename(path))}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`)];
  const lockBase = lockPath === undefined ? undefined : basename(lockPath);
  if (lockBase !== undefined) patterns.push(new RegExp(`^${escapeRegex(lockBase)}(?:\\.[0-9a-f]{16})*\\.(\\d+)\\.[0-9a-f]+\\.tmp$`));
  const claim = lockBase === undefined ? undefined : new RegExp(`^${escapeRegex(lockBase)}\\.([0-9a-f]{16})$`);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  let liveDigest: string | null | undefined;
  for (const name of names) {
    const file = join(dir, name);
    try {
      const pid = patterns.map((p) => p.exec(name)?.[1]).find((m) => m !== undefined);
      if (pid !== undefined) {
        const info = await stat(file);
        if (!pidAlive(Number(pid)) || Date.now() - info.mtimeMs > TEMP_MAX_AGE_MS) await unlink(file);
        continue;
      }
      const digest = claim?.exec(name)?.[1];
      if (digest !== undefined && lockPath !== undefined) {
        // A claim belongs to one generation of the lock (its content); once the lock has moved on,
        // that generation never comes back (every lock carries a nonce), so its claim is dead.
        if (liveDigest === undefined) {
          const content = await readFile(lockPath, 'utf8').catch(() => null);
          liveDigest = content === null ? null : lockGeneration(content);
        }
        if (digest !== liveDigest) await unlink(file);
      }
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}
