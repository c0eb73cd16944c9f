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

type CompletionResult = { ok: true; outcome?: Record<string, unknown> | undefined } | { ok: false; error: AhError };

function completionRecord(fields: CompletionFields, result: CompletionResult): CommandCompletedInput {
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
  if (!result.ok) {
    const d = toDiagnostic(result.error, { domain: fields.domain });
    record.diagnostic = {
      code: d.code,
      message: d.message,
      exit_code_hint: d.exit_code_hint,
      domain: d.domain,
      operation: d.operation,
      cause: d.cause,
      retryable: d.retryable,
    };
  } else if (result.outcome !== undefined) {
    record.outcome = result.outcome;
  }
  if (fields.executionMs !== undefined) {
    record.queue_wait_ms = 0;
    record.execution_ms = fields.executionMs;
    if (fields.timedOut) record.timeout_phase = 'execution';
  }
  return record;
}

/** Writes one `command.completed` record: the only writer of that event. */
export function logCompletion(log: EventLog, fields: CompletionFields, result: CompletionResult): void {
  log.commandCompleted(completionRecord(fields, result));
}
