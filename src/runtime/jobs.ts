/**
 * In-memory job registry. A job is an admitted execution whose outcome is retained for later
 * reads. At most `maxRecords` records; completed ones expire `ttlMs` after physical completion and
 * the oldest completed record is evicted first; running and draining records are never evicted.
 */
import { randomBytes } from 'node:crypto';
import type { Notice } from '../catalog/descriptor.js';
import { AhError, type Diagnostic, toDiagnostic } from '../errors.js';
import type { Execution } from './executor.js';
import type { CallOutcome, TerminalState } from './execute.js';

export type JobState = 'running' | TerminalState;

export interface JobResponse {
  success: boolean;
  data?: Record<string, unknown>;
  text?: string;
  notices: Notice[];
  error?: Diagnostic;
}

interface JobRecord {
  id: string;
  tool: string;
  state: JobState;
  response?: JobResponse;
  execution: Execution;
  /** Epoch ms when the handler physically ended (completed records only). */
  completedAt?: number;
  seq: number;
}

export interface JobSummary {
  job_id: string;
  tool: string;
  status: JobState;
  draining: boolean;
}

export interface JobOptions {
  maxRecords?: number;
  ttlMs?: number;
  now?: () => number;
}

function notFound(id: string): AhError {
  return new AhError({
    code: 'JOB_NOT_FOUND',
    message: `no job '${id}' (unknown, expired or evicted)`,
    hint: 'Jobs live in server memory for one hour after they finish; start the job again if needed.',
    exitCodeHint: 2,
    domain: 'job',
    operation: 'job',
  });
}

function outcomeResponse(outcome: CallOutcome): JobResponse {
  if (outcome.ok) {
    const response: JobResponse = { success: true, data: outcome.data, notices: outcome.notices };
    const text = outcome.render?.();
    if (text !== undefined) response.text = text;
    return response;
  }
  return { success: false, notices: [], error: toDiagnostic(outcome.error) };
}

export class JobRegistry {
  private readonly records = new Map<string, JobRecord>();
  private readonly nonce = randomBytes(8).toString('hex');
  private sequence = 0;
  private readonly maxRecords: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: JobOptions = {}) {
    this.maxRecords = options.maxRecords ?? 128;
    this.ttlMs = options.ttlMs ?? 60 * 60 * 1000;
    this.now = options.now ?? Date.now;
  }

  /** Drops expired records; returns the ids of physically completed records, oldest first. */
  private purge(): JobRecord[] {
    const now = this.now();
    const completed: JobRecord[] = [];
    for (const record of this.records.values()) {
      if (record.completedAt === undefined) continue;
      if (now - record.completedAt >= this.ttlMs) this.records.delete(record.id);
      else completed.push(record);
    }
    return completed.sort((a, b) => (a.completedAt as number) - (b.completedAt as number) || a.seq - b.seq);
  }

  /** Throws JOB_CAPACITY_FULL when no record slot can be had (all are running or draining). */
  checkCapacity(): void {
    const completed = this.purge();
    if (this.records.size >= this.maxRecords && completed.length === 0) {
      throw new AhError({
        code: 'JOB_CAPACITY_FULL',
        message: `all ${this.maxRecords} job records are held by running or draining jobs`,
        hint: 'Wait for a job to finish or cancel one, then retry.',
        retryable: true,
        domain: 'job',
        operation: 'job.start',
      });
    }
  }

  /**
   * Starts a job: `launch` admits the target (and may throw, leaving no record). The record is
   * inserted only after admission succeeded.
   */
  start(tool: string, launch: (jobId: string) => Execution): JobSummary {
    this.checkCapacity();
    const seq = this.sequence + 1;
    const id = `job-${this.nonce}-${String(seq).padStart(16, '0')}`;
    const execution = launch(id);
    this.sequence = seq;
    const completed = this.purge();
    while (this.records.size >= this.maxRecords && completed.length > 0) {
      const oldest = completed.shift() as JobRecord;
      this.records.delete(oldest.id);
    }
    const record: JobRecord = { id, tool, state: 'running', execution, seq };
    this.records.set(id, record);
    // Registered before any caller can await `logical`, so the record is updated first.
    void execution.logical.then((outcome) => {
      record.state = outcome.state;
      record.response = outcomeResponse(outcome);
    });
    void execution.physical.then(() => {
      record.completedAt = this.now();
    });
    return this.summary(record);
  }

  private get(id: string): JobRecord {
    this.purge();
    const record = this.records.get(id);
    if (!record) throw notFound(id);
    return record;
  }

  private summary(record: JobRecord): JobSummary {
    return {
      job_id: record.id,
      tool: record.tool,
      status: record.state,
      draining: record.state !== 'running' && !record.execution.physicallyDone(),
    };
  }

  status(id: string): JobSummary {
    return this.summary(this.get(id));
  }

  result(id: string): JobSummary & { ready: boolean; response?: JobResponse } {
    const record = this.get(id);
    const summary = this.summary(record);
    if (record.state === 'running' || !record.response) return { ...summary, ready: false };
    return { ...summary, ready: true, response: record.response };
  }

  /** Idempotent: cancelling a finished job changes nothing. Resolves with the updated state. */
  async cancel(id: string): Promise<JobSummary> {
    const record = this.get(id);
    if (record.state === 'running') {
      record.execution.cancel(new AhError({ code: 'EXECUTION_CANCELLED', message: 'the job was cancelled', operation: 'execution' }));
      // The logical outcome completes at once on cancel; wait for the record to reflect it.
      await record.execution.logical;
      await Promise.resolve();
    }
    return this.summary(record);
  }

  get size(): number {
    return this.records.size;
  }
}
