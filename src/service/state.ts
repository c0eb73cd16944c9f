/**
 * Durable per-user state of the managed service (independent of AH_CONFIG_DIR):
 * current.json (which definition is active; a repairable index), definitions/<id>.json
 * (immutable, content-addressed), runtime.json (written by the managed server), lifecycle.json
 * (the last lifecycle operation), and the locks lifecycle.lock / instance.lock (present while held).
 */
import { mkdirSync } from 'node:fs';
import { readdir, readFile, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sweepStaleTemps, writeFileAtomic } from '../platform/atomic-write.js';
import { acquireLock, type HeldLock } from '../platform/lock.js';
import { configurationId, parseDefinition, type ServiceDefinition, canonicalJson } from './definition.js';

export type Read<T> = { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'invalid'; reason: string };

interface CurrentIndex {
  schema_version: 1;
  service_id: string;
  configuration_id: string;
  updated_at: string;
}

export interface RuntimeRecord {
  schema_version: 1;
  service_id: string;
  configuration_id: string;
  pid: number;
  instance_id: string;
  version: string;
  port: number;
  started_at: string;
  ready_at: string | null;
  exit: { code: number; reason: string; at: string } | null;
}

interface LifecycleRecord {
  schema_version: 1;
  operation: string;
  state: 'in_progress' | 'completed' | 'failed';
  pid: number;
  started_at: string;
  finished_at: string | null;
  diagnostic_code: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isInt = (v: unknown): v is number => Number.isInteger(v);
const orNull = (check: (v: unknown) => boolean) => (v: unknown) => v === null || check(v);

/** Accepts a schema-1 object whose listed fields pass their checks (other fields are ignored). */
function parser<T>(checks: Record<string, (v: unknown) => boolean>): (v: unknown) => T | null {
  return (v) => (isObject(v) && v.schema_version === 1 && Object.entries(checks).every(([k, check]) => check(v[k])) ? (v as T) : null);
}

const parseCurrent = parser<CurrentIndex>({ service_id: isStr, configuration_id: isStr, updated_at: isStr });
const parseRuntime = parser<RuntimeRecord>({
  service_id: isStr,
  configuration_id: isStr,
  pid: isInt,
  instance_id: isStr,
  version: isStr,
  port: isInt,
  started_at: isStr,
  ready_at: orNull(isStr),
  exit: orNull((e) => isObject(e) && isInt(e.code) && typeof e.reason === 'string' && isStr(e.at)),
});
const parseLifecycle = parser<LifecycleRecord>({
  operation: isStr,
  state: (v) => v === 'in_progress' || v === 'completed' || v === 'failed',
  pid: isInt,
  started_at: isStr,
  finished_at: orNull(isStr),
  diagnostic_code: orNull(isStr),
});

async function readJson<T>(path: string, parse: (v: unknown) => T | null): Promise<Read<T>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'invalid', reason: `${path}: ${(error as Error).message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: `${path} is not valid JSON` };
  }
  const parsed = parse(value);
  return parsed === null ? { kind: 'invalid', reason: `${path} does not have the expected fields` } : { kind: 'ok', value: parsed };
}

/**
 * Replaces a state file. Temp files of writers killed mid-write go first: only dead writers' temps
 * are removed (pid check), so a live writer of the same file is never disturbed.
 */
async function replaceJson(path: string, value: unknown): Promise<void> {
  await sweepStaleTemps(path);
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Takes `lifecycle.lock` (one lifecycle mutation at a time) or `instance.lock` (the lease of the one
 * managed server process), waiting at most `waitSeconds` (0: try once); null when someone else holds
 * it. They are the lock every persisted file uses (platform/lock.ts; why that one is in its header):
 * a dead holder's lock is taken over atomically, so a server killed with SIGKILL never wedges the next.
 */
export async function tryLock(path: string, waitSeconds: number): Promise<HeldLock | null> {
  mkdirSync(dirname(path), { recursive: true });
  return acquireLock(path, { timeoutMs: waitSeconds * 1000 });
}

export class StateStore {
  readonly currentPath: string;
  readonly runtimePath: string;
  readonly lifecyclePath: string;
  readonly lifecycleLockPath: string;
  readonly instanceLockPath: string;
  readonly definitionsDir: string;

  constructor(readonly dir: string) {
    this.currentPath = join(dir, 'current.json');
    this.runtimePath = join(dir, 'runtime.json');
    this.lifecyclePath = join(dir, 'lifecycle.json');
    this.lifecycleLockPath = join(dir, 'lifecycle.lock');
    this.instanceLockPath = join(dir, 'instance.lock');
    this.definitionsDir = join(dir, 'definitions');
  }

  definitionPath(id: string): string {
    return join(this.definitionsDir, `${id}.json`);
  }

  readCurrent(): Promise<Read<CurrentIndex>> {
    return readJson(this.currentPath, parseCurrent);
  }
  readRuntime(): Promise<Read<RuntimeRecord>> {
    return readJson(this.runtimePath, parseRuntime);
  }
  readLifecycle(): Promise<Read<LifecycleRecord>> {
    return readJson(this.lifecyclePath, parseLifecycle);
  }

  /** A definition verifies only when its content hashes to its file name. */
  readDefinition(id: string): Promise<Read<ServiceDefinition>> {
    return readJson(this.definitionPath(id), (v) => {
      const d = parseDefinition(v);
      return d && configurationId(d) === id ? d : null;
    });
  }

  /** Writes a definition once; a valid existing file is never rewritten (definitions are immutable). */
  async writeDefinition(definition: ServiceDefinition): Promise<string> {
    const id = configurationId(definition);
    const existing = await this.readDefinition(id);
    if (existing.kind !== 'ok') await writeFileAtomic(this.definitionPath(id), `${canonicalJson(definition)}\n`);
    return id;
  }

  async writeCurrent(serviceId: string, id: string): Promise<void> {
    const value: CurrentIndex = { schema_version: 1, service_id: serviceId, configuration_id: id, updated_at: new Date().toISOString() };
    await replaceJson(this.currentPath, value);
  }

  async writeRuntime(value: RuntimeRecord): Promise<void> {
    await replaceJson(this.runtimePath, value);
  }

  async writeLifecycle(value: LifecycleRecord): Promise<void> {
    await replaceJson(this.lifecyclePath, value);
  }

  /**
   * Uninstall's deletions: runtime.json, definitions that verify as this service's, current.json
   * and lifecycle.json. Unexpected files and the lock anchors stay. Returns what could not go.
   */
  async removeManagedFiles(serviceId: string): Promise<string[]> {
    const failures: string[] = [];
    const attempt = (path: string) =>
      unlink(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') failures.push(`${path}: ${error.message}`);
      });
    await attempt(this.runtimePath);
    let names: string[] = [];
    try {
      names = await readdir(this.definitionsDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') failures.push(`${this.definitionsDir}: ${(error as Error).message}`);
    }
    for (const name of names) {
      const match = /^([0-9a-f]{32})\.json$/.exec(name);
      if (!match?.[1]) continue;
      const read = await this.readDefinition(match[1]);
      if (read.kind === 'ok' && read.value.service_id === serviceId) await attempt(this.definitionPath(match[1]));
    }
    await attempt(this.currentPath);
    await attempt(this.lifecyclePath);
    return failures;
  }
}
