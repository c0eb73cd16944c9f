/** What the rest of the program hands to the invocation log. The sink adds the envelope fields. */
export interface LoggedDiagnostic {
  code: string;
  message: string;
  exit_code_hint: number;
  domain?: string | null;
  operation?: string | null;
  cause?: string;
  retryable?: boolean;
}

export interface CommandCompletedInput {
  transport: 'cli' | 'mcp';
  /** Canonical command id, e.g. `file.read`, or `help`. */
  command: string;
  /** CLI: {argv: [...]}; MCP: the typed arguments. Redacted and bounded by the sink. */
  parameters: unknown;
  status: 'success' | 'error';
  duration_ms: number;
  request_id?: string;
  tool?: string;
  job_id?: string;
  diagnostic?: LoggedDiagnostic;
  /** Outcome fields the command chose to log (descriptor logOutcome). */
  outcome?: Record<string, unknown>;
  queue_wait_ms?: number;
  execution_ms?: number;
  timeout_phase?: 'execution';
}

export interface SystemEventInput {
  component: string;
  severity: 'warning' | 'error';
  diagnostic: LoggedDiagnostic;
  context?: Record<string, unknown>;
}

export interface EventLog {
  commandCompleted(event: CommandCompletedInput): void;
  system(event: SystemEventInput): void;
  /** Resolves once everything queued so far is written (or dropped). Never rejects. */
  flush(): Promise<void>;
}

/** A log that drops everything (used where logging is impossible, e.g. a bad config root). */
export const NULL_LOG: EventLog = {
  commandCompleted() {},
  system() {},
  flush: () => Promise.resolve(),
};
