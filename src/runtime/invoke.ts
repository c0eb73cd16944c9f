/**
 * The single call path shared by every surface: look up, validate input, resolve context, run
 * under a deadline and AbortSignal, validate output, log once. Surfaces never call handlers directly.
 */
import { type CommandContext, type CommandDescriptor, domainOf, type HostApi, type Notice } from '../catalog/descriptor.js';
import type { CatalogSnapshot } from '../catalog/registry.js';
import { compile, describeErrors } from '../catalog/schema.js';
import { AhError, internalError, toDiagnostic } from '../errors.js';
import type { CommandCompletedInput, EventLog } from '../logging/types.js';
import type { Env } from '../platform/paths.js';
import { type ContextDefaults, needsExplicitCwd, type ResolvedContext, resolveContext } from './context.js';
import { type CredentialIds, checkCredentialIds, resolveCredentials } from './credentials.js';

export interface RuntimeCore {
  snapshot(): CatalogSnapshot;
  host: HostApi;
  log: EventLog;
  /** Environment handed to child processes. */
  env: Env;
}

export interface CallRequest {
  commandId: string;
  /** Command arguments, without `context` and `credentials`. */
  arguments: Record<string, unknown>;
  /** Raw slot → vault record id mapping as received (MCP `credentials`, CLI `--credential`). */
  credentials?: unknown;
  /** Raw per-call context as received (MCP) or built from globals (CLI). */
  context?: unknown;
  defaults: ContextDefaults & {
    /** Apply the HTTP working-directory rule (cwd-bound commands need an absolute context.cwd). */
    httpCwdRule?: boolean;
    /** Require an absolute cwd whatever the command (HTTP job targets). */
    forceExplicitCwd?: boolean;
  };
  transport: 'cli' | 'mcp';
}

export interface PreparedCall {
  descriptor: CommandDescriptor;
  input: Record<string, unknown>;
  context: ResolvedContext;
  /** Checked slot → record id mapping; values are read only when the call runs. */
  credentialIds: CredentialIds;
}

export type TerminalState = 'succeeded' | 'failed' | 'cancelled' | 'timed_out';

export type CallOutcome =
  | { ok: true; state: 'succeeded'; data: Record<string, unknown>; notices: Notice[]; text?: string; executionMs: number }
  | { ok: false; state: Exclude<TerminalState, 'succeeded'>; error: AhError; executionMs: number };

const NO_CREDENTIALS: CredentialIds = Object.freeze({});
const NO_RESOLVED_CREDENTIALS: CommandContext['credentials'] = Object.freeze({});

const RANGE_KEYWORDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);

function disabledError(domain: string): AhError {
  return new AhError({
    code: 'DOMAIN_DISABLED',
    message: `the '${domain}' domain is disabled`,
    hint: `Run 'ah plugins enable ${domain}' to enable it.`,
    domain: 'plugins',
    operation: 'plugin.runtime',
  });
}

/**
 * A deep copy of JSON data (what arguments are: parsed JSON or CLI flags), several times cheaper
 * than structuredClone for the small objects a call carries.
 */
export function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copy = copyJson((value as Record<string, unknown>)[key]);
    // An own "__proto__" key (JSON.parse makes one) must stay a plain property, not a prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out;
}

/** Finds the command, validates its arguments and resolves the context. Throws AhError. */
export function prepareCall(snapshot: CatalogSnapshot, req: CallRequest): PreparedCall {
  const descriptor = snapshot.get(req.commandId);
  if (!descriptor) {
    throw new AhError({ code: 'TYPED_COMMAND_NOT_FOUND', message: `unknown command '${req.commandId}'`, hint: "Run 'ah --help'." });
  }
  const domain = domainOf(descriptor.id);
  if (!snapshot.isEnabled(domain)) throw disabledError(domain);
  // Validation fills in defaults, so it works on a copy; the caller's arguments stay as received.
  const input = copyJson(req.arguments) as Record<string, unknown>;
  const validate = compile(descriptor.inputSchema);
  if (!validate(input)) {
    const keyword = validate.errors?.[0]?.keyword ?? '';
    throw new AhError({
      // Numeric bounds have their own code, as in the reference contract.
      code: RANGE_KEYWORDS.has(keyword) ? 'INVALID_RANGE' : 'INVALID_ARGUMENT',
      message: `invalid arguments for ${descriptor.id}: ${describeErrors(validate.errors)}`,
      domain,
      operation: descriptor.id,
    });
  }
  const requireAbsoluteCwd =
    req.defaults.httpCwdRule === true && (req.defaults.forceExplicitCwd === true || needsExplicitCwd(descriptor.stateless, input));
  const { cwd, limit, timeoutMs } = req.defaults;
  const context = resolveContext(req.context, { cwd, limit, timeoutMs, requireAbsoluteCwd });
  const credentialIds =
    req.credentials === undefined && descriptor.credentialSlots === undefined
      ? NO_CREDENTIALS
      : checkCredentialIds(descriptor, req.credentials);
  return { descriptor, input, context, credentialIds };
}

export interface ExecuteOptions {
  /** External cancellation (protocol cancel, job cancel, shutdown). */
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /** Called once the handler has physically finished, even after a logical cancel or timeout. */
  onPhysicalEnd?: () => void;
  /**
   * Receives, synchronously, a function that cancels this call like an abort of `signal` with that
   * reason (no-op once the call has completed). Lets the executor cancel without a second signal.
   */
  onCancelHandle?: (cancel: (reason: AhError) => void) => void;
  transport: 'cli' | 'mcp';
}

function abortReason(signal: AbortSignal): AhError {
  const reason = signal.reason as unknown;
  if (reason instanceof AhError) return reason;
  return new AhError({ code: 'EXECUTION_CANCELLED', message: 'the call was cancelled', operation: 'execution' });
}

/**
 * Runs a prepared call. The returned promise settles at logical completion: handler result, or at
 * once on cancellation or timeout (a late handler result is then ignored).
 */
export function executeCall(core: RuntimeCore, call: PreparedCall, options: ExecuteOptions): Promise<CallOutcome> {
  const started = performance.now();
  const controller = new AbortController();
  const { timeoutMs } = call.context;
  const deadline = timeoutMs === null ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  const notices: Notice[] = [];
  const elapsed = () => Math.round(performance.now() - started);

  return new Promise<CallOutcome>((settle) => {
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: CallOutcome) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onExternalAbort);
      settle(outcome);
    };
    const stop = (error: AhError, state: 'cancelled' | 'timed_out') => {
      if (!controller.signal.aborted) controller.abort(error);
      finish({ ok: false, state, error, executionMs: elapsed() });
    };
    const onExternalAbort = () => {
      const error = abortReason(options.signal as AbortSignal);
      stop(error, error.code === 'EXECUTION_TIMEOUT' ? 'timed_out' : 'cancelled');
    };
    if (options.signal?.aborted) {
      onExternalAbort();
      options.onPhysicalEnd?.();
      return;
    }
    options.signal?.addEventListener('abort', onExternalAbort, { once: true });
    options.onCancelHandle?.((reason) => {
      if (!done) stop(reason, reason.code === 'EXECUTION_TIMEOUT' ? 'timed_out' : 'cancelled');
    });
    if (timeoutMs !== null) {
      timer = setTimeout(() => {
        stop(
          new AhError({
            code: 'EXECUTION_TIMEOUT',
            message: `${call.descriptor.id} did not finish within ${timeoutMs} ms`,
            hint: 'Raise context.timeout_ms or narrow the request.',
            retryable: true,
            operation: 'execution',
          }),
          'timed_out',
        );
      }, timeoutMs);
      timer.unref?.();
    }

    const context = (credentials: CommandContext['credentials']): CommandContext => ({
      cwd: call.context.cwd,
      limit: call.context.limit,
      signal: controller.signal,
      deadline,
      env: core.env,
      credentials,
      notice: (n) => notices.push(n),
      progress: (message) => options.onProgress?.(message),
      host: core.host,
      transport: options.transport,
    });
    let physical: Promise<unknown>;
    if (Object.keys(call.credentialIds).length > 0) {
      // Values are read at the last moment and handed to the handler only.
      physical = resolveCredentials(call.descriptor, call.credentialIds, core.host.vault).then((credentials) =>
        controller.signal.aborted ? undefined : call.descriptor.run(call.input, context(credentials)),
      );
    } else {
      try {
        physical = call.descriptor.run(call.input, context(NO_RESOLVED_CREDENTIALS));
      } catch (error) {
        physical = Promise.reject(error);
      }
    }
    physical
      .then(
        (data) => {
          if (done) return;
          const validate = compile(call.descriptor.outputSchema);
          if (!validate(data)) {
            finish({
              ok: false,
              state: 'failed',
              error: new AhError({
                code: 'OUTPUT_SCHEMA_VIOLATION',
                message: `${call.descriptor.id} produced output that does not match its schema`,
                cause: describeErrors(validate.errors, 'output'),
                operation: call.descriptor.id,
              }),
              executionMs: elapsed(),
            });
            return;
          }
          const outcome: CallOutcome = {
            ok: true,
            state: 'succeeded',
            data: data as Record<string, unknown>,
            notices,
            executionMs: elapsed(),
          };
          if (call.descriptor.render) {
            try {
              outcome.text = call.descriptor.render(data);
            } catch {
              // A rendering bug must not lose a valid result; the JSON is still there.
            }
          }
          finish(outcome);
        },
        (error: unknown) => {
          finish({ ok: false, state: 'failed', error: internalError(error), executionMs: elapsed() });
        },
      )
      .finally(() => {
        if (timer) clearTimeout(timer);
        options.onPhysicalEnd?.();
      });
  });
}

/** Builds the `command.completed` record for an outcome (or a preparation error). */
export function completionRecord(
  commandId: string,
  transport: 'cli' | 'mcp',
  parameters: unknown,
  durationMs: number,
  result: { ok: true; data?: Record<string, unknown> } | { ok: false; error: AhError },
): CommandCompletedInput {
  const record: CommandCompletedInput = {
    transport,
    command: commandId,
    parameters,
    status: result.ok ? 'success' : 'error',
    duration_ms: Math.max(0, Math.round(durationMs)),
  };
  if (!result.ok) {
    const d = toDiagnostic(result.error, { domain: domainOf(commandId) });
    record.diagnostic = {
      code: d.code,
      message: d.message,
      exit_code_hint: d.exit_code_hint,
      domain: d.domain,
      operation: d.operation,
      cause: d.cause,
      retryable: d.retryable,
    };
  } else if (commandId === 'run.check' && result.data) {
    const data = result.data as { success?: boolean; timed_out?: boolean; exit_code?: number | null };
    record.outcome = { success: data.success === true, timed_out: data.timed_out === true, exit_code: data.exit_code ?? null };
  }
  return record;
}
