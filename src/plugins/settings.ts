/**
 * plugins.json: {version: 1, disabled_domains: [...]}. Every change is read-modify-write under a
 * cross-process lock with a bounded wait, written to a temp file and renamed into place.
 */
import { type FSWatcher, unwatchFile, watch, watchFile } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { AhError } from '../errors.js';
import { sweepStaleTemps, writeFileAtomic } from '../platform/atomic-write.js';
import { withFileLock } from '../platform/lock.js';
import { readTextIfPresent } from '../platform/read-text.js';

export interface PluginSettings {
  version: 1;
  disabled_domains: string[];
}

const LOCK_TIMEOUT_MS = 5000;

function invalid(path: string, cause: string): AhError {
  return new AhError({
    code: 'JSON_DESERIALIZATION_FAILED',
    message: `cannot read plugin settings from ${path}`,
    cause: `${path}: ${cause}`,
    hint: 'Fix the file by hand, or delete it to enable every domain again.',
    operation: 'json',
  });
}

export function normalizeDomains(domains: readonly string[]): string[] {
  return [...new Set(domains.map((d) => d.trim().toLowerCase()).filter((d) => d !== ''))].sort();
}

export async function readPluginSettings(path: string): Promise<PluginSettings> {
  let text: string | null;
  try {
    text = await readTextIfPresent(path);
  } catch (error) {
    throw new AhError({ code: 'FILE_READ_FAILED', message: `cannot read ${path}`, cause: (error as Error).message, operation: 'file' });
  }
  if (text === null) return { version: 1, disabled_domains: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(path, (error as Error).message);
  }
  const doc = parsed as { version?: unknown; disabled_domains?: unknown };
  if (!doc || typeof doc !== 'object' || doc.version !== 1) throw invalid(path, 'expected {"version": 1, "disabled_domains": [...]}');
  if (!Array.isArray(doc.disabled_domains) || !doc.disabled_domains.every((d) => typeof d === 'string')) {
    throw invalid(path, 'disabled_domains must be a list of domain names');
  }
  return { version: 1, disabled_domains: normalizeDomains(doc.disabled_domains as string[]) };
}

/** Applies `update` to the stored list under the lock; writes only when something changed. */
export async function updateDisabledDomains(
  path: string,
  update: (current: readonly string[]) => string[],
): Promise<{ disabled: string[]; changed: boolean }> {
  // The sidecar lock lives next to the file, so the config directory must exist first (fresh machine).
  await mkdir(dirname(path), { recursive: true }).catch((error: Error) => {
    throw writeFailed(path, error);
  });
  return withFileLock(path, { timeoutMs: LOCK_TIMEOUT_MS }, async () => {
    // Temp files of writers killed mid-write go first (only a lock holder may judge them).
    await sweepStaleTemps(path, `${path}.lock`);
    // Re-read under the lock: another process may have changed the file since we last looked.
    const current = (await readPluginSettings(path)).disabled_domains;
    const next = normalizeDomains(update(current));
    const changed = next.join('\n') !== current.join('\n');
    if (changed) {
      const doc: PluginSettings = { version: 1, disabled_domains: next };
      try {
        await writeFileAtomic(path, `${JSON.stringify(doc, null, 2)}\n`);
      } catch (error) {
        throw writeFailed(path, error as Error);
      }
    }
    return { disabled: next, changed };
  });
}

function writeFailed(path: string, error: Error): AhError {
  return new AhError({ code: 'FILE_WRITE_FAILED', message: `cannot write ${path}`, cause: error.message, operation: 'file' });
}

/**
 * Calls `onChange` (debounced) whenever plugins.json may have changed, whoever wrote it: another
 * `ah` process, the user's editor. Writes replace the file by rename, so the directory is watched,
 * not the file's inode; without a directory yet (fresh machine) a slow stat poll waits for it.
 * Returns the function that stops watching.
 */
export function watchPluginSettings(path: string, onChange: () => void, debounceMs = 50): () => void {
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
    timer.unref?.();
  };
  const name = basename(path);
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(path), { persistent: false }, (_event, file) => {
      // Some platforms give no file name: then any change in the directory counts.
      if (file === null || file === name) fire();
    });
    watcher.on('error', () => undefined);
  } catch {
    watchFile(path, { persistent: false, interval: 1000 }, fire);
  }
  return () => {
    if (timer) clearTimeout(timer);
    if (watcher) watcher.close();
    else unwatchFile(path, fire);
  };
}
