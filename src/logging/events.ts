/**
 * The invocation log: daily JSONL files under <config root>/logs, one line per event, appended by
 * a single in-process queue. Best effort: nothing here ever throws to a caller or changes a result.
 */
import { join } from 'node:path';
import { boundValue, cutString, MAX_MESSAGE_BYTES, MAX_RECORD_BYTES } from './bounds.js';
import { redactText, redactValue } from './redact.js';
import { pruneLogs } from './retention.js';
import { isoTime } from '../platform/clock.js';
import { closeFd, makeDirectory, openFd, writeFd } from '../platform/fs-callback.js';
import type { CommandCompletedInput, EventLog, LoggedDiagnostic, SystemEventInput } from './types.js';

const QUEUE_LIMIT = 256;
/**
 * Records wait up to this long to share one write with the records after them (a server doing one
 * call at a time would otherwise pay a file write per call); flush() writes at once. A queue that
 * fills past EARLY_DRAIN is written without waiting, so the window never drops records.
 */
const COALESCE_MS = 20;
const EARLY_DRAIN = 64;

interface EventLogOptions {
  configDir: string;
  unredacted: boolean;
  now?: () => Date;
  pid?: number;
}

function logFileName(date: Date): string {
  return `aihelper-${isoTime(date).slice(0, 10)}.jsonl`;
}

type Record_ = Record<string, unknown>;

/** What a record too large even without its payload keeps. */
const MINIMAL_KEYS = [
  'schema_version',
  'timestamp',
  'event',
  'transport',
  'pid',
  'command',
  'status',
  'duration_ms',
  'component',
  'severity',
];

export function createEventLog(options: EventLogOptions): EventLog {
  const now = options.now ?? (() => new Date());
  const pid = options.pid ?? process.pid;
  const dir = join(options.configDir, 'logs');
  const scrub = (value: unknown): unknown => (options.unredacted ? value : redactValue(value));
  const scrubText = (text: string): string => (options.unredacted ? text : redactText(text));
  // Busy servers log many records per millisecond: the ISO text is made once per millisecond.
  let lastMs = Number.NaN;
  let lastIso = '';
  const timestamp = (date: Date): string => {
    const ms = date.getTime();
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = isoTime(date);
    }
    return lastIso;
  };
  // Records wait as builders: redaction, bounding and JSON happen when the batch is written, after
  // the response that caused them has gone out, not on the call's own path.
  const queue: (() => string)[] = [];
  let draining: Promise<void> | undefined;
  let dirReady = false;
  const prunedDates = new Set<string>();

  const diagnostic = (d: LoggedDiagnostic): Record_ => {
    const out: Record_ = { code: d.code, message: cutString(scrubText(d.message)), exit_code_hint: d.exit_code_hint };
    if (d.domain != null) out.domain = d.domain;
    if (d.operation != null) out.operation = d.operation;
    if (d.cause !== undefined) out.cause = cutString(scrubText(d.cause));
    if (d.retryable !== undefined) out.retryable = d.retryable;
    return out;
  };

  /** Serialises a record within the size bound, degrading in steps as the contract describes. */
  const serialise = (record: Record_, payloadKey: 'parameters' | 'context'): string => {
    let line = JSON.stringify(record);
    // A UTF-16 code unit is at most 3 UTF-8 bytes: most lines need no byte count.
    if (line.length * 3 + 1 <= MAX_RECORD_BYTES || Buffer.byteLength(line) + 1 <= MAX_RECORD_BYTES) return line;
    const degraded: Record_ = {
      ...record,
      [payloadKey]: { _truncated: true, original_bounded_bytes: Buffer.byteLength(JSON.stringify(record[payloadKey])) },
    };
    const d = degraded.diagnostic as Record_ | undefined;
    if (d) {
      degraded.diagnostic = {
        ...d,
        message: cutString(String(d.message), MAX_MESSAGE_BYTES),
        ...(d.cause !== undefined ? { cause: cutString(String(d.cause), MAX_MESSAGE_BYTES) } : {}),
      };
    }
    degraded.record_truncated = true;
    line = JSON.stringify(degraded);
    if (Buffer.byteLength(line) + 1 <= MAX_RECORD_BYTES) return line;
    const minimal: Record_ = {};
    for (const key of MINIMAL_KEYS) {
      if (record[key] !== undefined) minimal[key] = typeof record[key] === 'string' ? cutString(record[key] as string, 256) : record[key];
    }
    minimal[payloadKey] = { _truncated: true };
    minimal.record_truncated = true;
    return JSON.stringify(minimal);
  };

  // The day's file stays open in append mode: a batch is one write() of whole lines, which on a
  // local POSIX file system lands atomically at the end, so concurrent writers never interleave.
  let current: { day: string; fd: number } | undefined;

  /** Appends a batch of lines to the current day's file. */
  const write = async (lines: string[]): Promise<void> => {
    const date = now();
    const day = isoTime(date).slice(0, 10);
    if (!dirReady) {
      await makeDirectory(dir, { recursive: true, mode: 0o700 });
      dirReady = true;
    }
    if (!prunedDates.has(day)) {
      prunedDates.add(day);
      await pruneLogs(dir, date).catch(() => undefined);
    }
    if (current?.day !== day) {
      if (current) await closeFd(current.fd).catch(() => undefined);
      // Cleared first: if the open fails, no closed handle is left as the current one.
      current = undefined;
      current = { day, fd: await openFd(join(dir, logFileName(date)), 'a', 0o600) };
    }
    const data = Buffer.from(`${lines.join('\n')}\n`);
    let offset = 0;
    while (offset < data.length) offset += (await writeFd(current.fd, data, offset)).bytesWritten;
  };

  const drain = async (): Promise<void> => {
    while (queue.length > 0) {
      // Everything queued so far goes out together (busy servers log many calls per write).
      const batch: string[] = [];
      for (const build of queue.splice(0, queue.length)) {
        try {
          batch.push(build());
        } catch {
          // A record that cannot be built is dropped alone.
        }
      }
      try {
        if (batch.length > 0) await write(batch);
      } catch {
        // Best effort: a failed write drops this batch only.
      }
    }
  };

  let pending: NodeJS.Timeout | undefined;
  const startDrain = (): void => {
    if (pending) {
      clearTimeout(pending);
      pending = undefined;
    }
    if (draining !== undefined || queue.length === 0) return;
    draining = drain().finally(() => {
      draining = undefined;
      // Records queued while the last write was finishing get their own window.
      if (queue.length > 0) schedule();
    });
  };
  const schedule = (): void => {
    if (draining !== undefined) return;
    if (queue.length >= EARLY_DRAIN) startDrain();
    else pending ??= setTimeout(startDrain, COALESCE_MS);
  };

  const flush = async (): Promise<void> => {
    startDrain();
    while (draining !== undefined) {
      await draining.catch(() => undefined);
      startDrain();
    }
  };

  const enqueue = (build: () => string): void => {
    if (queue.length >= QUEUE_LIMIT) return;
    queue.push(build);
    schedule();
  };

  return {
    commandCompleted(event: CommandCompletedInput) {
      const at = now();
      enqueue(() => {
        const record: Record_ = {
          schema_version: 1,
          timestamp: timestamp(at),
          event: 'command.completed',
          transport: event.transport,
          pid,
          command: event.command,
          parameters: boundValue(scrub(event.parameters ?? {})),
          status: event.status,
          duration_ms: event.duration_ms,
        };
        // Optional fields in their fixed order (one plain check each; this runs on every call).
        if (event.request_id !== undefined) record.request_id = event.request_id;
        if (event.tool !== undefined) record.tool = event.tool;
        if (event.job_id !== undefined) record.job_id = event.job_id;
        if (event.diagnostic) record.diagnostic = diagnostic(event.diagnostic);
        if (event.outcome !== undefined) record.outcome = event.outcome;
        if (event.queue_wait_ms !== undefined) record.queue_wait_ms = event.queue_wait_ms;
        if (event.execution_ms !== undefined) record.execution_ms = event.execution_ms;
        if (event.timeout_phase !== undefined) record.timeout_phase = event.timeout_phase;
        return serialise(record, 'parameters');
      });
    },
    system(event: SystemEventInput) {
      const at = now();
      enqueue(() => {
        const record: Record_ = {
          schema_version: 1,
          timestamp: timestamp(at),
          event: 'system',
          pid,
          component: event.component,
          severity: event.severity,
          diagnostic: diagnostic(event.diagnostic),
          context: boundValue(scrub(event.context ?? {})),
        };
        return serialise(record, 'context');
      });
    },
    flush,
  };
}
