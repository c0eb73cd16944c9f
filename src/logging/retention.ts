/** Keeps today's log plus the nine previous days; deletes only exact, older, regular log files. */
import { join } from 'node:path';
import { isoTime } from '../platform/clock.js';
import { listDirectory, lstatPath, unlinkPath } from '../platform/fs-callback.js';

const NAME = /^aihelper-(\d{4}-\d{2}-\d{2})\.jsonl$/;
const RETAINED_DAYS = 10;

export async function pruneLogs(dir: string, today: Date): Promise<string[]> {
  const cutoff = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (RETAINED_DAYS - 1)));
  const cutoffDay = isoTime(cutoff).slice(0, 10);
  const removed: string[] = [];
  for (const name of await listDirectory(dir)) {
    const match = NAME.exec(name);
    if (!match) continue;
    const day = match[1] as string;
    // A name that is not a real calendar date is left alone.
    if (Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || isoTime(new Date(`${day}T00:00:00Z`)).slice(0, 10) !== day) continue;
    if (day >= cutoffDay) continue;
    const path = join(dir, name);
    const info = await lstatPath(path).catch(() => undefined);
    if (!info?.isFile()) continue;
    await unlinkPath(path).catch(() => undefined);
    removed.push(name);
  }
  return removed;
}
