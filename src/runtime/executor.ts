/**
 * Fail-fast parallel executor. `maxActive` physical slots are shared by direct calls and job
 * targets; admission is immediate or fails at once (EXECUTION_CAPACITY_FULL) — nothing is queued.
 * Cancellation and timeout complete the caller-visible outcome at once; an uncooperative handler
 * keeps only its own slot until it physically ends. Logging is the invoke path's job.
 */
import { AhError, cancelledError } from '../errors.js';
import { type CallOutcome, type ExecuteOptions, executeCall, type PreparedCall, type RuntimeCore } from './execute.js';

/** `signal`: caller cancellation (protocol cancel); jobs pass their own signal instead. */
export type StartOptions = Pick<ExecuteOptions, 'signal' | 'client' | 'requestId'>;

export interface Execution {
  /** Settles at logical completion (result, cancel or timeout). Never rejects. */
  readonly logical: Promise<CallOutcome>;
  /** Settles when the handler has physically finished. Never rejects. */
  readonly physical: Promise<void>;
  /** Requests cancellation; the logical outcome completes at once. Idempotent. */
  cancel(reason?: AhError): void;
  readonly physicallyDone: () => boolean;
}

export class Executor {
  private readonly core: RuntimeCore;
  readonly maxActive: number;
  private activeSlots = 0;
  private closed = false;
  private readonly running = new Set<Execution>();

  constructor(core: RuntimeCore, maxActive: number) {
    if (!Number.isInteger(maxActive) || maxActive < 1) throw new RangeError('maxActive must be >= 1');
    this.core = core;
    this.maxActive = maxActive;
  }

  get active(): number {
    return this.activeSlots;
  }

  /** Throws when a new execution could not be admitted right now (without taking a slot). */
  private checkAdmission(): void {
    if (this.closed) {
      throw new AhError({
        code: 'EXECUTOR_SHUTTING_DOWN',
        message: 'the server is shutting down and accepts no new work',
        retryable: false,
        operation: 'execution',
      });
    }
    if (this.activeSlots >= this.maxActive) {
      throw new AhError({
        code: 'EXECUTION_CAPACITY_FULL',
        message: `all ${this.maxActive} execution slots are busy`,
        hint: 'Retry shortly, or wait for running jobs to finish.',
        retryable: true,
        operation: 'execution',
      });
    }
  }

  /** Admits and starts a prepared call, or throws EXECUTION_CAPACITY_FULL / EXECUTOR_SHUTTING_DOWN. */
  start(call: PreparedCall, options: StartOptions = {}): Execution {
    this.checkAdmission();
    this.activeSlots += 1;
    // The caller's signal goes straight to executeCall; cancel() reaches it through a handle, so a
    // call costs one AbortController (the handler's) and one listener, not two of each.
    let cancelCall: (reason: AhError) => void = () => undefined;
    // executeCall may end physically before returning (a caller signal that is already aborted).
    let execution: Execution | undefined;
    let released = false;
    let resolvePhysical: () => void = () => undefined;
    const physical = new Promise<void>((r) => {
      resolvePhysical = r;
    });
    const release = () => {
      if (released) return;
      released = true;
      this.activeSlots -= 1;
      if (execution) this.running.delete(execution);
      resolvePhysical();
    };
    const logical = executeCall(this.core, call, {
      transport: 'mcp',
      signal: options.signal,
      client: options.client,
      requestId: options.requestId,
      onPhysicalEnd: release,
      onCancelHandle: (cancel) => {
        cancelCall = cancel;
      },
    });
    execution = {
      logical,
      physical,
      cancel: (reason) => {
        cancelCall(cancelledError(reason));
      },
      physicallyDone: () => released,
    };
    if (!released) this.running.add(execution);
    return execution;
  }

  /** Closes admission: every later start fails with EXECUTOR_SHUTTING_DOWN. */
  close(): void {
    this.closed = true;
  }

  /** Cancels everything running. */
  cancelAll(reason: AhError): void {
    for (const execution of this.running) execution.cancel(reason);
  }

  /** Resolves when every admitted handler has physically finished. */
  async drained(): Promise<void> {
    while (this.running.size > 0) {
      await Promise.all([...this.running].map((e) => e.physical));
    }
  }
}
