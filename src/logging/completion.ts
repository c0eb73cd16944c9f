/**
 * The `command.completed` record: built from a call's outcome and written here only. What a
 * successful call adds to its record is the command's own choice (descriptor `logOutcome`).
 */
import { type AhError, toDiagnostic } from '../errors.js';
import type { CommandCompletedInput, EventLog } from './types.js';

interface CompletionFields {
  transport: 'cli' | 'mcp';
  command: string;
  /** CLI: {argv}; MCP: the arguments as received. Redacted and bounded by the sink. */
  parameters: unknown;
  durationMs: number;
  /** Domain named in the diagnostic when the error carries none. */
  domain: string;
  requestId?: string | undefined;
  tool?: string | undefined;
  jobId?: string | undefined;
  /** Set for calls that ran in an executor slot. */
  executionMs?: number | undefined;
  timedOut?: boolean;
}

export type CompletionResult = { ok: true; outcome?: Record<string, unknown> | undefined } | { ok: false; error: AhError };

/** Writes one `command.completed` record: the only writer of that event. */
export function logCompletion(log: EventLog, fields: CompletionFields, result: CompletionResult): void {
  const record: CommandCompletedInput = {
    transport: fields.transport,
    command: fields.command,
    parameters: fields.parameters,
    status: result.ok ? 'success' : 'error',
    duration_ms: Math.max(0, Math.round(fields.durationMs)),
  };
  if (fields.requestId !== undefined) record.request_id = fields.requestId;
  if (fields.tool !== undefined) record.tool = fields.tool;
  if (fields.jobId !== undefined) record.job_id = fields.jobId;
  // The sink keeps the diagnostic's fields it logs (no hint).
  if (!result.ok) record.diagnostic = toDiagnostic(result.error, { domain: fields.domain });
  else if (result.outcome !== undefined) record.outcome = result.outcome;
  if (fields.executionMs !== undefined) {
    record.queue_wait_ms = 0;
    record.execution_ms = fields.executionMs;
    if (fields.timedOut) record.timeout_phase = 'execution';
  }
  log.commandCompleted(record);
}
