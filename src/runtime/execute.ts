/**
 * Runs one prepared call under its deadline and AbortSignal and checks its output. Settles at
 * logical completion: the handler's result, or at once on cancellation or timeout (a late handler
 * result is then ignored). Only runtime/invoke.ts and the executor call this.
 */
import type { ClientLogLevel, CommandContext, CommandDescriptor, HostApi, Notice, ToolContent } from '../catalog/descriptor.js';
import type { CatalogSnapshot } from '../catalog/registry.js';
import { compile, describeErrors, type JsonSchema, type TSchema } from '../catalog/schema.js';
import { contentProblem } from '../catalog/tool-content.js';
import { AhError, cancelledError, internalError } from '../errors.js';
import type { EventLog } from '../logging/types.js';
import type { Env } from '../platform/paths.js';
import type { ResolvedContext } from './context.js';
import { type CredentialIds, resolveCredentials } from './credentials.js';
import { monotonicMs } from '../platform/clock.js';

/**
 * Anything the invoke path runs: a catalog command, or one the host adds beside the catalog (the
 * job tools of a server, the CLI's host commands). Every catalog descriptor is one.
 */
export interface Callable
  extends Pick<
    CommandDescriptor,
    'id' | 'inputSchema' | 'credentialSlots' | 'stateless' | 'render' | 'logOutcome' | 'mcp' | 'run' | 'cli'
  > {
  /** Checked against every successful output when present (catalog commands always have one). */
  outputSchema?: TSchema | JsonSchema;
  /** How argument errors read: command arguments (default), CLI options (host), job tools (exit hint 2). */
  kind?: 'command' | 'host' | 'job';
}

export interface RuntimeCore {
  snapshot(): CatalogSnapshot;
  host: HostApi;
  log: EventLog;
  /** Environment handed to child processes. */
  env: Env;
  /** Commands the host adds beside the catalog; always enabled, looked up first. */
  extra?: ReadonlyMap<string, Callable>;
}

export interface PreparedCall {
  descriptor: Callable;
  input: Record<string, unknown>;
  context: ResolvedContext;
  /** Checked slot → record id mapping; values are read only when the call runs. */
  credentialIds: CredentialIds;
}

export type TerminalState = 'succeeded' | 'failed' | 'cancelled' | 'timed_out';

export type CallOutcome =
  | {
      ok: true;
      state: 'succeeded';
      data: Record<string, unknown>;
      notices: Notice[];
      /** The human rendering, built on first use (the CLI's text, a job's text, a small MCP answer). */
      render?: () => string | undefined;
      /** MCP content blocks the command built from its output (descriptor `mcp.content`). */
      content?: readonly ToolContent[];
      executionMs: number;
    }
  | { ok: false; state: Exclude<TerminalState, 'succeeded'>; error: AhError; executionMs: number };

/** What a surface can pass on to the client while a call runs (MCP progress, log, stream). */
export interface ClientChannel {
  progress?(message: string, step?: { progress: number; total?: number }): void;
  log?(level: ClientLogLevel, message: string): void;
  releaseStream?(): void;
}

/**
 * A rendering made at most once, and only when a surface asks: a big result's text (a
 * 10,000-row table) is never wanted by `--json` or by an MCP answer that would drop it.
 */
function renderOnce(render: () => string): () => string | undefined {
  let done = false;
  let text: string | undefined;
  return () => {
    if (!done) {
      done = true;
      try {
        text = render();
      } catch {
        // A rendering bug must not lose a valid result; the JSON is still there.
      }
    }
    return text;
  };
}

export interface ExecuteOptions {
  transport: 'cli' | 'mcp';
  /** External cancellation (protocol cancel, job cancel, shutdown). */
  signal?: AbortSignal | undefined;
  client?: ClientChannel | undefined;
  requestId?: string | undefined;
  /** Called once the handler has physically finished, even after a logical cancel or timeout. */
  onPhysicalEnd?: () => void;
  /**
   * Receives, synchronously, a function that cancels this call like an abort of `signal` with that
   * reason (no-op once the call has completed). Lets the executor cancel without a second signal.
   */
  onCancelHandle?: (cancel: (reason: AhError) => void) => void;
}

const NO_RESOLVED_CREDENTIALS: CommandContext['credentials'] = Object.freeze({});

/**
 * The handler's cancellation: its AbortSignal is made on first read. Creating an AbortSignal costs
 * ~5-8 µs on Node 20, more than the rest of a small call's own path, and most handlers never read
 * it; a call stopped before the read hands over a signal that is already aborted with the reason.
 */
class Stopper {
  reason: AhError | undefined;
  private controller: AbortController | undefined;

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.reason !== undefined) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  stop(reason: AhError): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

/**
 * What a handler receives. A class rather than an object literal, so that `signal` can be a
 * getter (see Stopper) without making every context a slow dictionary-mode object; the
 * callbacks stay arrow functions so a handler may pass them on unbound.
 */
class HandlerContext implements CommandContext {
  readonly cwd: string;
  readonly limit: number | null;
  readonly deadline: number;
  readonly env: RuntimeCore['env'];
  readonly credentials: CommandContext['credentials'];
  readonly host: RuntimeCore['host'];
  readonly transport: 'cli' | 'mcp';
  readonly requestId: string | undefined;
  readonly notice: CommandContext['notice'];
  readonly progress: CommandContext['progress'];
  readonly log: NonNullable<CommandContext['log']>;
  readonly releaseStream: NonNullable<CommandContext['releaseStream']>;
  private readonly stopper: Stopper;

  constructor(
    call: PreparedCall,
    core: RuntimeCore,
    options: ExecuteOptions,
    deadline: number,
    credentials: CommandContext['credentials'],
    notices: Notice[],
    stopper: Stopper,
  ) {
    this.cwd = call.context.cwd;
    this.limit = call.context.limit;
    this.deadline = deadline;
    this.env = core.env;
    this.credentials = credentials;
    this.host = core.host;
    this.transport = options.transport;
    this.requestId = options.requestId;
    this.stopper = stopper;
    this.notice = (n) => notices.push(n);
    this.progress = (message, step) => options.client?.progress?.(message, step);
    this.log = (level, message) => options.client?.log?.(level, message);
    this.releaseStream = () => options.client?.releaseStream?.();
  }

  get signal(): AbortSignal {
    return this.stopper.signal;
  }
}

export function executeCall(core: RuntimeCore, call: PreparedCall, options: ExecuteOptions): Promise<CallOutcome> {
  const started = monotonicMs();
  const stopper = new Stopper();
  const { timeoutMs } = call.context;
  const deadline = timeoutMs === null ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  const notices: Notice[] = [];
  const elapsed = () => Math.round(monotonicMs() - started);

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
    const stop = (error: AhError) => {
      if (done) return;
      stopper.stop(error);
      finish({ ok: false, state: error.code === 'EXECUTION_TIMEOUT' ? 'timed_out' : 'cancelled', error, executionMs: elapsed() });
    };
    const onExternalAbort = () => stop(cancelledError((options.signal as AbortSignal).reason));
    if (options.signal?.aborted) {
      onExternalAbort();
      options.onPhysicalEnd?.();
      return;
    }
    options.signal?.addEventListener('abort', onExternalAbort, { once: true });
    options.onCancelHandle?.(stop);
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
        );
      }, timeoutMs);
      timer.unref?.();
    }

    const context = (credentials: CommandContext['credentials']): CommandContext =>
      new HandlerContext(call, core, options, deadline, credentials, notices, stopper);
    let physical: Promise<unknown>;
    if (Object.keys(call.credentialIds).length > 0) {
      // Values are read at the last moment and handed to the handler only.
      physical = resolveCredentials(call.descriptor, call.credentialIds, core.host.vault).then((credentials) =>
        stopper.reason !== undefined ? undefined : call.descriptor.run(call.input, context(credentials)),
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
          // A result that breaks the output schema, or content that is not MCP content, is the command's bug.
          const violation = (what: string, cause: string) =>
            finish({
              ok: false,
              state: 'failed',
              error: new AhError({
                code: 'OUTPUT_SCHEMA_VIOLATION',
                message: `${call.descriptor.id} produced ${what}`,
                cause,
                operation: call.descriptor.id,
              }),
              executionMs: elapsed(),
            });
          const schema = call.descriptor.outputSchema;
          const validate = schema === undefined ? undefined : compile(schema);
          if (validate && !validate(data))
            return violation('output that does not match its schema', describeErrors(validate.errors, 'output'));
          const outcome: CallOutcome = {
            ok: true,
            state: 'succeeded',
            data: data as Record<string, unknown>,
            notices,
            executionMs: elapsed(),
          };
          const build = options.transport === 'mcp' ? call.descriptor.mcp?.content : undefined;
          if (build) {
            let problem: string | undefined;
            try {
              outcome.content = build(data);
              problem = contentProblem(outcome.content);
            } catch (error) {
              problem = `building the content failed: ${error instanceof Error ? error.message : String(error)}`;
            }
            if (problem !== undefined) return violation('content that is not valid MCP content', problem);
          }
          const render = call.descriptor.render;
          if (render) outcome.render = renderOnce(() => render(data));
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
