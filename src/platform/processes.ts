/**
 * What we can learn about other processes without starting one: whether a pid is alive, when it
 * started (so a reused pid is not mistaken for the process that held a lock), and which processes
 * belong to a tree we started. Linux answers from /proc; elsewhere only liveness is known.
 */
import { readdir, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';

/** True when a process with this pid exists (EPERM: it exists but belongs to someone else). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sends `signal` to this process (its default action applies when no handler is installed). */
export function raiseSignal(signal: NodeJS.Signals): void {
  process.kill(process.pid, signal);
}

/** Alive and not a zombie (an exited but unreaped process is gone for a service's purposes). */
export function processRunning(pid: number): boolean {
  if (!pidAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    // No /proc (macOS, Windows): liveness is all there is to know.
    return true;
  }
}

/** The login name of the user running ah, from the OS (callers try USER/LOGNAME first). */
export function osUserName(): string | null {
  try {
    return userInfo().username;
  } catch {
    return null;
  }
}

/** Fields of /proc/<pid>/stat after the command name (which may itself hold spaces and parens). */
function statFields(text: string): string[] | null {
  const end = text.lastIndexOf(')');
  return end < 0 ? null : text.slice(end + 2).split(' ');
}

/**
 * The process's start time in clock ticks since boot (/proc/<pid>/stat field 22), or null where
 * /proc is not there or the process is gone. Together with the boot id it names one process for
 * the whole life of the machine, unlike the pid, which is reused (pid_max is 32768 on many systems).
 */
export function processStartTime(pid: number): string | null {
  try {
    return statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[19] ?? null;
  } catch {
    return null;
  }
}

let bootIdCache: string | null | undefined;
/** This boot's id (Linux), null elsewhere. */
export function bootId(): string | null {
  if (bootIdCache === undefined) {
    try {
      bootIdCache = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      bootIdCache = null;
    }
  }
  return bootIdCache;
}

interface ProcEntry {
  pid: number;
  ppid: number;
}

async function listProcesses(): Promise<ProcEntry[]> {
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return [];
  }
  const entries = await Promise.all(
    names
      .filter((n) => /^\d+$/.test(n))
      .map(async (n) => {
        try {
          const fields = statFields(await readFile(`/proc/${n}/stat`, 'utf8'));
          return fields ? { pid: Number(n), ppid: Number(fields[1]) } : null;
        } catch {
          return null;
        }
      }),
  );
  return entries.filter((e): e is ProcEntry => e !== null);
}

async function carriesMarker(pid: number, marker: Buffer): Promise<boolean> {
  try {
    // Only our own processes' environ is readable; others fail fast with EACCES.
    return (await readFile(`/proc/${pid}/environ`)).includes(marker);
  } catch {
    return false;
  }
}

/**
 * Every live process of a tree we started (Linux): the descendants of `root` by parent chain, and
 * any process whose environment carries `marker` (`NAME=value\0`), which finds descendants that
 * left the process group with setsid and were re-parented to init when their parent exited. A
 * process that both clears its environment and is orphaned is not found (documented limit).
 */
export async function treeMembers(root: number, marker: string | null): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  const all = await listProcesses();
  const found = new Set<number>();
  const self = process.pid;
  if (marker !== null) {
    const needle = Buffer.from(`${marker}\0`);
    const hits = await Promise.all(all.map(async (p) => (p.pid !== self && (await carriesMarker(p.pid, needle)) ? p.pid : 0)));
    for (const pid of hits) if (pid > 0) found.add(pid);
  }
  if (pidAlive(root)) found.add(root);
  // Close over parent links: children of anything found so far.
  const children = new Map<number, number[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const queue = [...found];
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    for (const child of children.get(pid) ?? []) {
      if (!found.has(child) && child !== self) {
        found.add(child);
        queue.push(child);
      }
    }
  }
  return [...found];
}
