/**
 * The task store `<cwd>/.ah/tasks.json`: {version: 1, tasks: [{name, command, updated_unix_seconds}]}.
 * Saves are serialized across processes by the project's file lock (platform/lock.ts, a sidecar
 * `tasks.json.lock`) and land by an atomic replace (platform/atomic-write.ts), so a reader sees the
 * old file or the new one, and a writer killed at any point leaves one of them.
 */
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AhError } from '../../errors.js';
import { sweepStaleTemps, writeFileAtomic } from '../../platform/atomic-write.js';
import { withFileLock } from '../../platform/lock.js';

interface StoredTask {
  name: string;
  command: string;
  updated_unix_seconds: number;
}

interface TaskFile {
  version: 1;
  tasks: StoredTask[];
}

export const NAME_PATTERN = '^[A-Za-z0-9._-]+$';
const MAX_STORE_BYTES = 4 * 1024 * 1024;
const LOCK_TIMEOUT_MS = 5000;

export function storePath(cwd: string): string {
  return join(cwd, '.ah', 'tasks.json');
}

function invalid(path: string, cause: string): AhError {
  return new AhError({
    code: 'JSON_DESERIALIZATION_FAILED',
    message: `the task store is not valid: ${path}`,
    cause,
    hint: 'Fix or remove the file; it must be {"version": 1, "tasks": [{"name", "command", "updated_unix_seconds"}]}.',
    domain: 'task',
    operation: 'json',
  });
}

/** The stored tasks; an absent store is an empty one. */
export async function readStore(path: string): Promise<TaskFile> {
  let text: string;
  try {
    const info = await stat(path);
    if (info.size > MAX_STORE_BYTES) throw invalid(path, `the file is ${info.size} bytes (at most ${MAX_STORE_BYTES})`);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof AhError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, tasks: [] };
    throw new AhError({
      code: 'FILE_READ_FAILED',
      message: `could not read the task store: ${path}`,
      cause: (error as Error).message,
      domain: 'task',
      operation: 'file',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(path, (error as Error).message);
  }
  const file = value as Partial<TaskFile> | null;
  if (file === null || typeof file !== 'object' || file.version !== 1 || !Array.isArray(file.tasks)) {
    throw invalid(path, 'expected {"version": 1, "tasks": [...]}');
  }
  for (const t of file.tasks) {
    if (
      t === null ||
      typeof t !== 'object' ||
      typeof t.name !== 'string' ||
      typeof t.command !== 'string' ||
      typeof t.updated_unix_seconds !== 'number'
    ) {
      throw invalid(path, 'every task needs a string name, a string command and a number updated_unix_seconds');
    }
  }
  return { version: 1, tasks: file.tasks.map((t) => ({ name: t.name, command: t.command, updated_unix_seconds: t.updated_unix_seconds })) };
}

/** Inserts or replaces the task by name under the store lock; returns the stored record. */
export async function upsertTask(path: string, name: string, command: string, now: number): Promise<StoredTask> {
  // The lock's sidecar lives next to the store, so the directory must exist first.
  await writeDirectory(path);
  return withFileLock(path, { timeoutMs: LOCK_TIMEOUT_MS }, async () => {
    // Temp files of writers killed mid-write (store and lock) go first; only a lock holder may judge them.
    await sweepStaleTemps(path, `${path}.lock`);
    const file = await readStore(path);
    const record: StoredTask = { name, command, updated_unix_seconds: now };
    const index = file.tasks.findIndex((t) => t.name === name);
    if (index === -1) file.tasks.push(record);
    else file.tasks[index] = record;
    await writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
    return record;
  });
}

async function writeDirectory(path: string): Promise<void> {
  const dir = path.slice(0, path.length - 'tasks.json'.length - 1);
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new AhError({
      code: 'FILE_WRITE_FAILED',
      message: `could not create ${dir}`,
      cause: (error as Error).message,
      domain: 'task',
      operation: 'directory',
    });
  }
}

export function taskNotFound(name: string, path: string): AhError {
  return new AhError({
    code: 'TASK_NOT_FOUND',
    message: `no task named '${name}'`,
    cause: `${path} has no task '${name}'`,
    hint: "Run 'ah task list' to see the saved tasks, or 'ah task save <name> <command>' to add one.",
    domain: 'task',
  });
}
