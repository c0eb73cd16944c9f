/**
 * Worker threads that read and match files for search text, so the event loop stays free while
 * one or more searches run. The workers run the functions of scan.ts, shipped as source text
 * (`eval` workers need no separate file next to the bundle). Jobs are chunks of files, served in
 * FIFO order by whichever worker is idle. Cancellation: every search owns an Int32Array on a
 * SharedArrayBuffer; setting it makes a running chunk stop before its next file, and queued chunks
 * of that search are dropped. When a worker cannot start or dies, its chunk (and, after repeated
 * failures, every chunk) is scanned on the main thread instead, in short slices.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  codePointsBetween,
  decodeText,
  type FileResult,
  findHits,
  readWhole,
  type ScanDeps,
  type ScanSpec,
  type ScanState,
  scanChunk,
  scanFile,
  sniffText,
} from './scan.js';

const deps: ScanDeps = { openSync, fstatSync, readSync, closeSync, isAscii, isUtf8 };

/** Runs inside each worker; `req` is the worker's require, `scan` is scanChunk. */
function workerMain(req: (id: string) => unknown, scan: typeof scanChunk): void {
  const { parentPort } = req('node:worker_threads') as typeof import('node:worker_threads');
  const fs = req('node:fs') as typeof import('node:fs');
  const buffer = req('node:buffer') as typeof import('node:buffer');
  const workerDeps = {
    openSync: fs.openSync,
    fstatSync: fs.fstatSync,
    readSync: fs.readSync,
    closeSync: fs.closeSync,
    isAscii: buffer.isAscii,
    isUtf8: buffer.isUtf8,
  };
  const state = { buffer: null };
  parentPort?.on('message', (job: { id: number; spec: ScanSpec; files: string[]; cancel: Int32Array }) => {
    try {
      parentPort.postMessage({ id: job.id, results: scan(workerDeps, job.spec, job.files, job.cancel, state) });
    } catch (error) {
      parentPort.postMessage({ id: job.id, error: String(error) });
    }
  });
}

/** The worker program: the scan functions by their (possibly bundler-renamed) names, then the loop. */
export function workerSource(): string {
  const parts = [readWhole, sniffText, decodeText, codePointsBetween, findHits, scanFile, scanChunk].map(String);
  return `'use strict';\n${parts.join('\n')}\n(${String(workerMain)})(require, ${scanChunk.name});\n`;
}

/** Scans on the calling thread, yielding to the event loop every few milliseconds. */
export async function scanInline(
  spec: ScanSpec,
  files: readonly string[],
  cancel: Int32Array,
  state: ScanState = { buffer: null },
): Promise<FileResult[] | null> {
  const results: FileResult[] = [];
  let slice = performance.now();
  for (const file of files) {
    if (performance.now() - slice > 8) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
    const one = scanChunk(deps, spec, [file], cancel, state);
    if (one === null) return null;
    results.push(one[0] as FileResult);
  }
  return results;
}

interface Job {
  id: number;
  spec: ScanSpec;
  files: string[];
  cancel: Int32Array;
  resolve(results: FileResult[] | null): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker | null;
  job: Job | null;
}

/** Failures (a worker that cannot start or dies) after which the pool scans inline only. */
const MAX_FAILURES = 3;

export class ScanPool {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private failures = 0;
  private readonly source: string;

  constructor(readonly size: number) {
    this.slots = Array.from({ length: Math.max(1, size) }, () => ({ worker: null, job: null }));
    this.source = workerSource();
  }

  /** Workers that could not start or died so far. */
  get failureCount(): number {
    return this.failures;
  }

  /** True when workers are usable (false after repeated worker failures). */
  get healthy(): boolean {
    return this.failures < MAX_FAILURES;
  }

  /** Scans one chunk; resolves null when the search was cancelled through `cancel`. */
  scan(spec: ScanSpec, files: string[], cancel: Int32Array): Promise<FileResult[] | null> {
    if (!this.healthy) return scanInline(spec, files, cancel);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, spec, files, cancel, resolve, reject });
      this.pump();
    });
  }

  /** Drops the queued chunks of a cancelled search (running ones stop at their next file). */
  cancel(cancel: Int32Array): void {
    Atomics.store(cancel, 0, 1);
    for (let i = this.queue.length - 1; i >= 0; i -= 1) {
      const job = this.queue[i] as Job;
      if (job.cancel !== cancel) continue;
      this.queue.splice(i, 1);
      job.resolve(null);
    }
  }

  /** Stops every worker (tests; the process otherwise exits with idle workers unref'd). */
  async close(): Promise<void> {
    const workers = this.slots.map((s) => s.worker).filter((w): w is Worker => w !== null);
    for (const slot of this.slots) slot.worker = null;
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.job !== null) continue;
      const job = this.queue.shift() as Job;
      if (Atomics.load(job.cancel, 0) !== 0) {
        job.resolve(null);
        continue;
      }
      const worker = slot.worker ?? this.start(slot);
      if (worker === null) {
        this.fallback(job);
        continue;
      }
      slot.job = job;
      worker.ref();
      worker.postMessage({ id: job.id, spec: job.spec, files: job.files, cancel: job.cancel });
    }
  }

  private start(slot: Slot): Worker | null {
    if (!this.healthy) return null;
    let worker: Worker;
    try {
      worker = new Worker(this.source, { eval: true, name: 'ah-search' });
    } catch {
      this.failures += 1;
      return null;
    }
    worker.unref();
    const fail = () => {
      if (slot.worker !== worker) return;
      this.failures += 1;
      slot.worker = null;
      const job = slot.job;
      slot.job = null;
      if (job) this.fallback(job);
      this.pump();
    };
    worker.on('message', (message: { id: number; results?: FileResult[] | null; error?: string }) => {
      const job = slot.job;
      if (job === null || job.id !== message.id) return;
      slot.job = null;
      if (message.error !== undefined) this.fallback(job);
      else job.resolve(message.results ?? null);
      if (this.queue.length === 0) worker.unref();
      this.pump();
    });
    worker.on('error', fail);
    worker.on('exit', fail);
    slot.worker = worker;
    return worker;
  }

  private fallback(job: Job): void {
    scanInline(job.spec, job.files, job.cancel).then(job.resolve, job.reject);
  }
}

let shared: ScanPool | null = null;

/** The process-wide pool (one worker per core, at most four), created on first use. */
export function scanPool(): ScanPool {
  shared ??= new ScanPool(Math.min(4, Math.max(1, availableParallelism())));
  return shared;
}
