/**
 * The one error type every expected failure uses. Codes are stable contract values; messages are
 * short and human; `cause` carries the detail; `hint` tells the user what to do next.
 */
interface AhErrorInit {
  code: string;
  message: string;
  cause?: string | undefined;
  hint?: string | undefined;
  retryable?: boolean | undefined;
  exitCodeHint?: number | undefined;
  domain?: string | undefined;
  operation?: string | undefined;
  /**
   * A report the CLI prints on stdout before the diagnostic (text mode): e.g. the JUnit XML of a
   * failed spec run, which a CI system must still receive when the call fails.
   */
  report?: string | undefined;
}

export class AhError extends Error {
  readonly code: string;
  readonly detail: string;
  readonly hint: string | undefined;
  readonly retryable: boolean;
  readonly exitCodeHint: number;
  domain: string | undefined;
  operation: string | undefined;
  readonly report: string | undefined;

  constructor(init: AhErrorInit) {
    super(init.message);
    this.name = 'AhError';
    this.code = init.code;
    this.detail = init.cause ?? init.message;
    this.hint = init.hint;
    this.retryable = init.retryable ?? false;
    this.exitCodeHint = init.exitCodeHint ?? 1;
    this.domain = init.domain;
    this.operation = init.operation;
    this.report = init.report;
  }
}

export function isAhError(value: unknown): value is AhError {
  return value instanceof AhError;
}

/** Serialisable diagnostic, the shape shared by CLI `--json` errors, MCP and logs. */
export interface Diagnostic {
  domain: string | null;
  operation: string | null;
  code: string;
  message: string;
  cause: string;
  exit_code_hint: number;
  retryable: boolean;
  hint?: string;
}

const DOMAIN_PREFIXES: ReadonlyArray<[string, string]> = [
  ['GITHUB_', 'github'],
  ['GITLAB_', 'gitlab'],
  ['OLLAMA_', 'ollama'],
  ['POSTGRES_', 'postgres'],
  ['PLUGIN_', 'plugins'],
  ['DOMAIN_', 'plugins'],
];

const OPERATION_BY_CODE: Readonly<Record<string, string>> = {
  COMMAND_EXECUTION_FAILED: 'process.execute',
  COMMAND_FAILED: 'process.execute',
  JSON_DESERIALIZATION_FAILED: 'json',
  JSON_SERIALIZATION_FAILED: 'json',
  CWD_CHANGE_FAILED: 'cwd.change',
  FILE_NOT_FOUND: 'file',
  FILE_READ_FAILED: 'file',
  FILE_WRITE_FAILED: 'file',
  FILE_METADATA_FAILED: 'file',
  DIRECTORY_NOT_FOUND: 'directory',
  DIRECTORY_READ_FAILED: 'directory',
  DEPENDENCY_MISSING: 'dependency.preflight',
};

/** Converts anything thrown into a diagnostic; unknown exceptions become internal failures. */
export function toDiagnostic(error: unknown, fallback?: { domain?: string; operation?: string }): Diagnostic {
  const e = internalError(error);
  const domain = e.domain ?? fallback?.domain ?? DOMAIN_PREFIXES.find(([p]) => e.code.startsWith(p))?.[1] ?? null;
  const operation = e.operation ?? fallback?.operation ?? OPERATION_BY_CODE[e.code] ?? null;
  const diagnostic: Diagnostic = {
    domain,
    operation,
    code: e.code,
    message: e.message,
    cause: e.detail,
    exit_code_hint: e.exitCodeHint,
    retryable: e.retryable,
  };
  if (e.hint !== undefined) diagnostic.hint = e.hint;
  return diagnostic;
}

export function internalError(error: unknown): AhError {
  if (isAhError(error)) return error;
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new AhError({
    code: 'TYPED_INVOCATION_FAILED',
    message: 'the command failed unexpectedly',
    cause: detail,
    hint: 'This is a bug in ah; the log under the config directory has the details.',
  });
}

/**
 * Why a call stopped when it was aborted: the abort reason when it already says (a timeout, a
 * shutdown, an interrupt), else a plain cancellation.
 */
export function cancelledError(reason?: unknown): AhError {
  return reason instanceof AhError
    ? reason
    : new AhError({ code: 'EXECUTION_CANCELLED', message: 'the call was cancelled', operation: 'execution' });
}
