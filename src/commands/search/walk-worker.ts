/**
 * The ignore-aware walk of search text on a worker thread: walk-sync.ts's walkTree (synchronous
 * readdir and ignore-file reads, which are several times faster than the async walk and keep the
 * main thread free) streams batches of paths to the calling thread. Flow control: the worker stays
 * at most AHEAD_FILES files ahead of what the caller has taken. Cancellation: a flag on a
 * SharedArrayBuffer, polled once per directory and while the worker waits for the caller. Idle
 * walker workers are kept (unref'd) for the next search. When a worker cannot start, cannot load
 * the `ignore` package or fails mid-walk, the walk continues on the main thread (walker.ts),
 * skipping the files already delivered: the order is deterministic, so the results are the same.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  walkDirLayers,
  walkExcludesSetting,
  walkGlobalExcludes,
  walkInherited,
  walkIsIgnored,
  walkReadText,
  walkRepoRoot,
  type WalkSyncDeps,
  walkTree,
} from './walk-sync.js';
import { walkBatches, type WalkCounters, type WalkedFile, type WalkOptions } from './walker.js';

/** Files the worker may deliver beyond what the caller has taken before it waits. */
const AHEAD_FILES = 8192;
/** Control words on the shared buffer: cancel flag, files taken by the caller. */
const CANCEL = 0;
const TAKEN = 1;

interface WalkJob {
  root: string;
  followSymlinks: boolean;
  env: Record<string, string | undefined>;
  control: Int32Array;
}

type WalkMessage =
  | { type: 'batch'; absolute: string[]; relative: string[] }
  | { type: 'done'; symlinks: number }
  | { type: 'stopped' }
  | { type: 'error'; error: string };

/** Runs inside each walker worker; `req` is the worker's require, `walk` is walkTree. */
function walkerMain(req: (id: string) => unknown, walk: typeof walkTree, data: { ignorePath: string; ahead: number }): void {
  const { parentPort } = req('node:worker_threads') as typeof import('node:worker_threads');
  const fs = req('node:fs') as typeof import('node:fs');
  const path = req('node:path') as typeof import('node:path');
  const loaded = req(data.ignorePath) as { default?: unknown };
  const ignore = (typeof loaded === 'function' ? loaded : loaded.default) as WalkSyncDeps['ignore'];
  if (typeof ignore !== 'function') throw new Error('ignore package not loadable');
  const d = {
    readdirSync: fs.readdirSync,
    readFileSync: fs.readFileSync,
    statSync: fs.statSync,
    realpathSync: fs.realpathSync,
    join: path.join,
    dirname: path.dirname,
    relative: path.relative,
    isAbsolute: path.isAbsolute,
    sep: path.sep,
    ignore,
  } as unknown as WalkSyncDeps;
  parentPort?.on('message', (job: WalkJob) => {
    const control = job.control;
    let sent = 0;
    let limit = 16;
    let absolute: string[] = [];
    let relative: string[] = [];
    const stopped = () => Atomics.load(control, 0) !== 0;
    const post = (): boolean => {
      if (absolute.length > 0) {
        parentPort.postMessage({ type: 'batch', absolute, relative });
        sent += absolute.length;
        absolute = [];
        relative = [];
        limit = Math.min(512, limit * 4);
      }
      // Wait while too far ahead of the caller (woken by each take and by cancellation).
      for (;;) {
        if (stopped()) return false;
        const taken = Atomics.load(control, 1);
        if (sent - taken <= data.ahead) return true;
        Atomics.wait(control, 1, taken, 1000);
      }
    };
    const sink = (abs: string[], rel: string[]): boolean => {
      for (let i = 0; i < abs.length; i += 1) {
        absolute.push(abs[i] as string);
        relative.push(rel[i] as string);
      }
      return absolute.length < limit || post();
    };
    try {
      const symlinks = walk(d, job.root, { followSymlinks: job.followSymlinks, env: job.env }, sink, stopped);
      if (symlinks === null || !post()) parentPort.postMessage({ type: 'stopped' });
      else parentPort.postMessage({ type: 'done', symlinks });
    } catch (error) {
      parentPort.postMessage({ type: 'error', error: String(error) });
    }
  });
}

/** The worker program: walk-sync.ts's functions by their (possibly bundler-renamed) names, then the loop. */
export function walkerSource(ignorePath: string): string {
  const parts = [
    walkReadText,
    walkRepoRoot,
    walkExcludesSetting,
    walkGlobalExcludes,
    walkDirLayers,
    walkInherited,
    walkIsIgnored,
    walkTree,
  ].map(String);
  const data = JSON.stringify({ ignorePath, ahead: AHEAD_FILES });
  return `'use strict';\n${parts.join('\n')}\n(${String(walkerMain)})(require, ${walkTree.name}, ${data});\n`;
}

/** The `ignore` package's entry file, resolved from this module, the main script or the cwd. */
function resolveIgnore(): string | null {
  const bases = [import.meta.url, process.argv[1], join(process.cwd(), 'noop.js')];
  for (const base of bases) {
    if (!base) continue;
    try {
      return createRequire(base).resolve('ignore');
    } catch {}
  }
  return null;
}

/** Worker failures after which walks stay on the main thread. */
const MAX_FAILURES = 3;
/** Idle walker workers kept for later searches. */
const MAX_IDLE = 4;

export class WalkerPool {
  private readonly idle: Worker[] = [];
  private failures = 0;
  private source: string | null | undefined;

  /** Workers that could not start or failed so far. */
  get failureCount(): number {
    return this.failures;
  }

  get healthy(): boolean {
    return this.failures < MAX_FAILURES;
  }

  /** Counts a failure (a worker that could not start, died, or reported an error). */
  fail(): void {
    this.failures += 1;
  }

  /** An idle or new walker worker, or null when workers are unusable. */
  acquire(): Worker | null {
    if (!this.healthy) return null;
    const ready = this.idle.pop();
    if (ready) return ready;
    if (this.source === undefined) {
      const ignorePath = resolveIgnore();
      this.source = ignorePath === null ? null : walkerSource(ignorePath);
    }
    if (this.source === null) {
      this.failures = MAX_FAILURES;
      return null;
    }
    try {
      return new Worker(this.source, { eval: true, name: 'ah-search-walk' });
    } catch {
      this.fail();
      return null;
    }
  }

  /** Returns a worker that finished its walk (done or stopped) for reuse. */
  release(worker: Worker): void {
    worker.removeAllListeners('message');
    worker.removeAllListeners('error');
    worker.removeAllListeners('exit');
    if (this.idle.length >= MAX_IDLE) {
      void worker.terminate();
      return;
    }
    worker.unref();
    // An idle worker that dies is dropped silently.
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
    });
    this.idle.push(worker);
  }

  /** Stops the idle workers (tests). */
  async close(): Promise<void> {
    const workers = this.idle.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

let shared: WalkerPool | null = null;

export function walkerPool(): WalkerPool {
  shared ??= new WalkerPool();
  return shared;
}

/** Keys of the environment the walk reads (global git excludes). */
const ENV_KEYS = ['HOME', 'USERPROFILE', 'XDG_CONFIG_HOME'] as const;

/**
 * The files under `root` (a directory) in walkBatches order, walked on a worker thread; falls back
 * to walkBatches on the main thread when no worker is usable or one fails.
 */
export async function* walkBatchesOffThread(
  root: string,
  options: WalkOptions,
  counters: WalkCounters,
  pool: WalkerPool = walkerPool(),
): AsyncGenerator<WalkedFile[]> {
  let delivered = 0;
  const worker = options.signal.aborted ? null : pool.acquire();
  if (worker !== null) {
    const control = new Int32Array(new SharedArrayBuffer(8));
    const queue: WalkMessage[] = [];
    let wake: (() => void) | null = null;
    let finished = false;
    let failed = false;
    const notify = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const stop = () => {
      Atomics.store(control, CANCEL, 1);
      Atomics.notify(control, TAKEN);
      notify();
    };
    worker.on('message', (message: WalkMessage) => {
      queue.push(message);
      notify();
    });
    const onFailure = () => {
      if (finished) return;
      failed = true;
      finished = true;
      notify();
    };
    worker.on('error', onFailure);
    worker.on('exit', onFailure);
    options.signal.addEventListener('abort', stop, { once: true });
    const env: Record<string, string | undefined> = {};
    for (const key of ENV_KEYS) if (options.env[key] !== undefined) env[key] = options.env[key];
    worker.ref();
    worker.postMessage({ root, followSymlinks: options.followSymlinks, env, control } satisfies WalkJob);
    let reusable = false;
    try {
      for (;;) {
        if (options.signal.aborted) throw options.signal.reason;
        const message = queue.shift();
        if (message === undefined) {
          if (failed) break;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          continue;
        }
        if (message.type === 'batch') {
          const batch: WalkedFile[] = [];
          for (let i = 0; i < message.absolute.length; i += 1) {
            const relative = message.relative[i] as string;
            if (options.accept && !options.accept(relative)) continue;
            batch.push({ absolute: message.absolute[i] as string, relative });
          }
          delivered += message.absolute.length;
          if (batch.length > 0) yield batch;
          Atomics.store(control, TAKEN, delivered);
          Atomics.notify(control, TAKEN);
          continue;
        }
        finished = true;
        if (message.type === 'done') {
          counters.skippedSymlinks += message.symlinks;
          reusable = true;
          return;
        }
        if (message.type === 'stopped') {
          reusable = true;
          if (options.signal.aborted) throw options.signal.reason;
          return;
        }
        failed = true;
        reusable = true;
        break;
      }
    } finally {
      options.signal.removeEventListener('abort', stop);
      if (!finished) {
        // The caller stopped early (a reached limit, an abort or an error): stop the walk and recycle
        // the worker once it has answered.
        stop();
        worker.removeAllListeners('message');
        worker.on('message', (message: WalkMessage) => {
          if (message.type === 'batch') return;
          pool.release(worker);
        });
        worker.unref();
      } else if (reusable) pool.release(worker);
      else void worker.terminate();
    }
    if (failed) pool.fail();
  }
  // Main-thread walk: the whole walk, or the rest of it after a worker failure (the first
  // `delivered` files, counted before the accept filter, were already handed out).
  if (delivered === 0) {
    yield* walkBatches(root, options, counters);
    return;
  }
  const { accept, ...unfiltered } = options;
  let skip = delivered;
  for await (const batch of walkBatches(root, unfiltered, counters)) {
    const rest = skip >= batch.length ? [] : batch.slice(skip);
    skip = Math.max(0, skip - batch.length);
    const kept = accept ? rest.filter((file) => accept(file.relative)) : rest;
    if (kept.length > 0) yield kept;
  }
}
