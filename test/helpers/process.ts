import { readFileSync } from 'node:fs';

/** True while the process exists and is not a zombie (an unreaped exited process counts as dead). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Polls until every pid is dead or the time is up; returns the survivors. */
export async function survivors(pids: readonly number[], ms = 3000): Promise<number[]> {
  const until = Date.now() + ms;
  while (Date.now() < until && pids.some(isAlive)) await new Promise((r) => setTimeout(r, 25));
  return pids.filter(isAlive);
}
