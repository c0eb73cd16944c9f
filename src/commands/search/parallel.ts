/**
 * Runs a search job (engine.ts) on a small pool of worker threads and, when the caller may block
 * (the CLI), on the calling thread too. Units are claimed in order through shared control words
 * (protocol.ts), so each runs once; results come back per unit and are kept in unit order. As soon
 * as the completed prefix of units holds the budget of hits, later units are no longer needed and
 * stop. The pool has a fixed size: concurrent searches queue on the same workers (each worker
 * takes jobs in the order they were sent) instead of starting threads of their own, which would
 * starve the event loop on a machine with few cores. Worker trouble never loses a unit: whatever
 * a failed worker left undone runs on the calling thread, in short slices. No search can hold a
 * thread past its end: a worker still inside an ended job after STOP_GRACE_MS (a regex match
 * that backtracks for ever never looks at the cancel flag) is terminated and replaced, and the
 * calling thread's slices run under interruptible.ts, stopped at the deadline or on Ctrl-C.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AhError } from '../../errors.js';
import { isRegexSearch, jobRunner, type MatchRecord, type SearchJob, type UnitResult } from './engine.js';
import { type Interrupted, runInterruptible } from './interruptible.js';
import { CANCEL, claimNext, controlWords, HITS, STOP_AFTER, unitStopped, type WorkerMessage } from './protocol.js';
import { raiseSignal } from '../../platform/processes.js';
import { monotonicMs } from '../../platform/clock.js';

/** Failures (a worker that cannot start, dies or reports an error) after which no worker is started. */
const MAX_FAILURES = 3;
/** Longest stretch of work on the calling thread between two turns of its event loop. */
const SLICE_MS = 20;
/** How long a worker may stay inside a job that has ended before it is terminated and replaced. */
const STOP_GRACE_MS = 200;

/** The worker program next to the bundle (dist/search-worker.cjs); absent when running from source. */
function workerScript(): string | null {
  try {
    const path = fileURLToPath(new URL('./search-worker.cjs', import.meta.url));
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

interface JobHandlers {
  message(message: WorkerMessage): void;
  /** A worker that had the job died or failed: what it had claimed will never be reported. */
  lost(): void;
}

/** A worker and the jobs sent to it that it has not finished, in the order it takes them. */
interface Slot {
  worker: Worker;
  queue: number[];
}

export class SearchWorkers {
  private readonly slots: Slot[] = [];
  private readonly jobs = new Map<number, { handlers: JobHandlers; post: { id: number; job: SearchJob; control: Int32Array } }>();
  private nextJob = 1;
  private failures = 0;
  private replaced = 0;

  /** `script`: the worker program (default: dist/search-worker.cjs next to the bundle). */
  constructor(
    readonly size = Math.min(4, availableParallelism()),
    private script?: string | null,
  ) {}

  get failureCount(): number {
    return this.failures;
  }

  /** Workers terminated because they were still inside a job STOP_GRACE_MS after it ended. */
  get replacedCount(): number {
    return this.replaced;
  }

  /** Thread ids of the running workers (tests). */
  get threadIds(): number[] {
    return this.slots.map((slot) => slot.worker.threadId);
  }

  /** Starts workers up to `count` (at most `size`); returns how many are running. */
  start(count: number): number {
    while (this.slots.length < Math.min(count, this.size) && this.spawn() !== null) {
      // Each turn starts one worker.
    }
    return this.slots.length;
  }

  private spawn(): Slot | null {
    this.script ??= workerScript();
    if (this.script === null || this.failures >= MAX_FAILURES) return null;
    let worker: Worker;
    try {
      worker = new Worker(this.script, { name: 'ah-search' });
    } catch {
      this.failures += 1;
      return null;
    }
    const slot: Slot = { worker, queue: [] };
    // Only a running job keeps the process alive (see submit).
    if (this.jobs.size === 0) worker.unref();
    worker.on('message', (message: WorkerMessage) => {
      if ('done' in message || 'error' in message) {
        const at = slot.queue.indexOf(message.id);
        if (at >= 0) slot.queue.splice(at, 1);
      }
      this.jobs.get(message.id)?.handlers.message(message);
    });
    const drop = () => {
      this.failures += 1;
      this.remove(slot);
      for (const id of slot.queue) this.jobs.get(id)?.handlers.lost();
    };
    worker.on('error', drop);
    worker.on('exit', drop);
    this.slots.push(slot);
    return slot;
  }

  /** Takes a slot out of the pool and terminates its worker, whose events no longer count. */
  private remove(slot: Slot): void {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    slot.worker.removeAllListeners();
    // An error event with no listener would be thrown on this thread.
    slot.worker.on('error', () => undefined);
    void slot.worker.terminate();
  }

  /** Sends a job to `count` workers (started if needed); returns the job id and how many got it. */
  submit(job: SearchJob, control: Int32Array, count: number, handlers: JobHandlers): { id: number; workers: number } {
    const id = this.nextJob++;
    const workers = this.start(count);
    if (workers === 0) return { id, workers: 0 };
    const post = { id, job, control };
    this.jobs.set(id, { handlers, post });
    for (const slot of this.slots) slot.worker.ref();
    for (const slot of this.slots.slice(0, count)) {
      slot.queue.push(id);
      slot.worker.postMessage(post);
    }
    return { id, workers: Math.min(count, workers) };
  }

  /**
   * The job's handlers leave; idle workers stop keeping the process alive. A worker still inside
   * the job after STOP_GRACE_MS is not checking the job's cancel flag (one file's regex match can
   * run for ever): it is terminated, and a new worker takes the jobs queued behind it.
   */
  finish(id: number): void {
    this.jobs.delete(id);
    if (this.jobs.size === 0) for (const slot of this.slots) slot.worker.unref();
    if (!this.slots.some((slot) => slot.queue.includes(id))) return;
    setTimeout(() => {
      for (const slot of [...this.slots]) if (slot.queue[0] === id) this.replace(slot);
    }, STOP_GRACE_MS).unref();
  }

  private replace(slot: Slot): void {
    this.remove(slot);
    this.replaced += 1;
    const waiting = slot.queue.filter((id) => this.jobs.has(id));
    const next = waiting.length > 0 ? this.spawn() : null;
    for (const id of waiting) {
      const job = this.jobs.get(id);
      if (!job) continue;
      if (next === null) job.handlers.lost();
      else {
        next.queue.push(id);
        next.worker.postMessage(job.post);
      }
    }
    if (next !== null && this.jobs.size > 0) next.worker.ref();
  }

  /** Stops every worker (tests). */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const slot of slots) this.remove(slot);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }
}

let shared: SearchWorkers | null = null;
export function searchWorkers(): SearchWorkers {
  shared ??= new SearchWorkers();
  return shared;
}

export interface RunOptions {
  /** The calling thread runs units too (it may block: the CLI), yielding every SLICE_MS. */
  participate: boolean;
  /** Workers to use (0: the calling thread alone). */
  workers: number;
  /**
   * With a participating caller: workers join only a search still running after this long. A
   * worker costs tens of milliseconds of boot and cold code before it helps, which a short CLI
   * search never earns back; a long one does.
   */
  joinAfterMs?: number;
  /** Hits after which later units are not needed (limit + 1, or Infinity). */
  budget: number;
  signal: AbortSignal;
  /** Epoch ms by which the call must end: work on the calling thread is stopped there (default: none). */
  deadline?: number;
  pool?: SearchWorkers;
}

/** Worker count for a search: one per core beside a participating caller, at most four. */
function workerCount(participate: boolean): number {
  const cores = availableParallelism();
  return Math.max(participate ? 0 : 1, Math.min(4, participate ? cores - 1 : cores));
}

/**
 * One full turn of the event loop, timers included. A slice that ran in the poll phase (after an
 * fs callback) and yields with one setImmediate resumes in the same turn's check phase, before any
 * timer: two slices back to back. The second setImmediate lands after the timers phase.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * From the CLI, workers join a search still running after this long (see RunOptions.joinAfterMs).
 * A regex spends CPU on every byte, so a second thread pays back early. A literal or file-name
 * search is system calls and a native byte scan: on a warm page cache one thread is near the
 * read floor, and a worker joining at 40 ms made the repository's literal search 20-24 ms slower
 * on two cores, while a search still running at 200 ms (a cold cache, a tree of hundreds of MB)
 * still gains from the I/O and the core it adds (docs/performance.md, ninth round).
 */
const CLI_JOIN_AFTER_MS = { regex: 40, other: 200 };

/** How long a CLI search runs on its own thread before workers join it. */
export function cliJoinAfterMs(job: Pick<SearchJob, 'mode' | 'spec'>): number {
  return isRegexSearch(job) ? CLI_JOIN_AFTER_MS.regex : CLI_JOIN_AFTER_MS.other;
}

/**
 * Starts a server's search workers ahead of its first job, so they boot while the command resolves
 * and lists its roots (they stay for later searches). The CLI starts none ahead: see joinAfterMs.
 */
export function startWorkersFor(ctx: { transport: 'cli' | 'mcp'; env: Readonly<Record<string, string | undefined>> }): void {
  if (ctx.transport !== 'cli' && ctx.env.AH_SEARCH_WORKERS !== '0') searchWorkers().start(workerCount(false));
}

/**
 * How a command runs its search job for its caller: the CLI may block its own thread (it runs
 * units too, workers join a long search); a server keeps its event loop free (workers only).
 * AH_SEARCH_WORKERS=0 keeps everything on the calling thread.
 */
export function runForCaller(
  job: SearchJob,
  ctx: { transport: 'cli' | 'mcp'; env: Readonly<Record<string, string | undefined>>; signal: AbortSignal; deadline: number },
  budget: number,
): Promise<UnitResult[]> {
  const participate = ctx.transport === 'cli';
  const workers = ctx.env.AH_SEARCH_WORKERS === '0' ? 0 : workerCount(participate);
  return runJob(job, { participate, workers, joinAfterMs: cliJoinAfterMs(job), budget, signal: ctx.signal, deadline: ctx.deadline });
}

/**
 * Runs every needed unit; resolves with the results of units 0..n (n the last needed one, in
 * order). Rejects with the signal's reason as soon as it aborts; workers then stop on their own.
 */
export async function runJob(job: SearchJob, options: RunOptions): Promise<UnitResult[]> {
  const total = job.units.length;
  if (total === 0) return [];
  const control = controlWords(total);
  const results: (UnitResult | undefined)[] = new Array(total);
  /** Matches workers sent ahead of their units' results. */
  const early = new Map<number, MatchRecord[]>();
  const pool = options.pool ?? searchWorkers();
  const started = monotonicMs();
  const joinAfter = options.participate ? (options.joinAfterMs ?? 0) : 0;
  let prefix = 0;
  let prefixHits = 0;
  /** Moves the end of the completed prefix; stops later units once the prefix has the budget. */
  const advance = () => {
    while (prefix < total && prefix <= Atomics.load(control, STOP_AFTER)) {
      const hits = Atomics.load(control, HITS + prefix);
      if (hits < 0) return;
      prefixHits += hits;
      if (prefixHits >= options.budget) {
        Atomics.store(control, STOP_AFTER, prefix);
        return;
      }
      prefix += 1;
    }
  };
  const needed = () => Atomics.load(control, STOP_AFTER);
  const complete = () => {
    for (let i = 0; i <= needed(); i += 1) if (results[i] === undefined) return false;
    return true;
  };

  let rejectAbort: (reason: unknown) => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    rejectAbort = reject;
  });
  aborted.catch(() => undefined);
  const onAbort = () => {
    Atomics.store(control, CANCEL, 1);
    rejectAbort(options.signal.reason);
  };
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });

  // Workers settle the job when every needed unit has its result, or when each worker that got
  // the job has finished it (or is gone): then the calling thread runs what is still missing.
  let workers = 0;
  let jobId = 0;
  let finishedWorkers = 0;
  let settleWorkers: () => void = () => undefined;
  const workersSettled = new Promise<void>((resolve) => {
    settleWorkers = resolve;
  });
  const check = () => {
    if (finishedWorkers >= workers || complete()) settleWorkers();
  };
  let joined = options.workers === 0;
  const join = () => {
    joined = true;
    const sent = pool.submit(job, control, options.workers, {
      message: (message) => {
        if ('matches' in message) {
          const ahead = early.get(message.index);
          if (ahead) for (const match of message.matches) ahead.push(match);
          else early.set(message.index, message.matches);
          return;
        }
        if ('result' in message) {
          const ahead = early.get(message.index);
          if (ahead) {
            early.delete(message.index);
            for (const match of message.result.matches) ahead.push(match);
            message.result.matches = ahead;
          }
          results[message.index] = message.result;
          advance();
        } else finishedWorkers += 1;
        check();
      },
      lost: () => {
        // A lost worker may have held units of this job: count it finished, run the rest here.
        finishedWorkers += 1;
        check();
      },
    });
    workers = sent.workers;
    jobId = sent.id;
  };
  const maybeJoin = () => {
    if (!joined && monotonicMs() - started >= joinAfter) join();
  };
  maybeJoin();

  const runner = options.participate || workers === 0 ? jobRunner(job) : null;
  const deadline = options.deadline ?? Number.POSITIVE_INFINITY;
  /** The calling thread was stopped inside its work (see interruptible.ts): end the job. */
  const interrupted = async (how: Interrupted): Promise<never> => {
    Atomics.store(control, CANCEL, 1);
    // Ctrl-C reached vm instead of the process's own handlers: hand it to them (or, with none, to
    // the default action, which ends the process).
    if (how === 'sigint' && !process.emit('SIGINT', 'SIGINT')) raiseSignal('SIGINT');
    // The caller's timer or handler aborts the signal on its next turn; the error below is the
    // fallback for a caller without one.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([aborted, new Promise((resolve) => (timer = setTimeout(resolve, 1000)))]).finally(() => clearTimeout(timer));
    throw how === 'sigint'
      ? new AhError({ code: 'EXECUTION_CANCELLED', message: 'interrupted', operation: 'execution' })
      : new AhError({ code: 'EXECUTION_TIMEOUT', message: 'the search did not finish by its deadline', operation: 'execution' });
  };
  // Only a regex can hold a slice far past SLICE_MS (one match can backtrack for ever); a literal
  // or a file name search ends its slice on time, and the event loop then sees the deadline and
  // Ctrl-C. Running it through node:vm as well would cost every such CLI search a context (~1 ms).
  const interruptible = isRegexSearch(job);
  const runHere = async (next: () => number) => {
    const local = runner ?? jobRunner(job);
    /** Runs units for up to SLICE_MS; false when there are none left. */
    const slice = (): boolean => {
      const start = monotonicMs();
      for (let index = next(); index !== -1; index = next()) {
        const result = local.run(index, () => unitStopped(control, index));
        if (result !== null) {
          results[index] = result;
          Atomics.store(control, HITS + index, result.hits);
          advance();
        }
        if (monotonicMs() - start > SLICE_MS) return true;
      }
      return false;
    };
    for (;;) {
      const ran = interruptible ? runInterruptible(slice, deadline) : Date.now() < deadline ? { value: slice() } : 'timeout';
      if (typeof ran === 'string') await interrupted(ran);
      else if (!ran.value) return;
      maybeJoin();
      await Promise.race([nextTurn(), aborted]);
    }
  };

  try {
    // The calling thread claims units alongside the workers (or alone when there are none).
    if (runner !== null) await runHere(() => claimNext(control, total));
    if (workers > 0) {
      check();
      await Promise.race([workersSettled, aborted]);
    }
    // Units a lost worker claimed but never finished.
    let i = 0;
    await runHere(() => {
      while (i <= needed() && results[i] !== undefined) i += 1;
      return i > needed() || Atomics.load(control, CANCEL) !== 0 ? -1 : i;
    });
    if (options.signal.aborted) throw options.signal.reason;
    return results.slice(0, needed() + 1) as UnitResult[];
  } finally {
    options.signal.removeEventListener('abort', onAbort);
    // Stop whatever is still running (a reached budget, an abort or an error); a worker that has
    // not reached this job yet finds nothing left to claim.
    Atomics.store(control, CANCEL, 1);
    if (jobId !== 0) pool.finish(jobId);
  }
}
