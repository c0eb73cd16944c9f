/**
 * The single call path shared by every surface: look up, check the domain is enabled, copy and
 * validate the arguments, resolve context and credentials, admit, execute and log once. Surfaces
 * translate to a request and from the outcome; they never call handlers directly.
 */
import { domainOf } from '../catalog/descriptor.js';
import { cliOnlyFields, compile, describeErrors, type JsonSchema, type TSchema } from '../catalog/schema.js';
import { commandPath, usageFor } from '../catalog/usage.js';
import { AhError, internalError } from '../errors.js';
import { logCompletion } from '../logging/completion.js';
import { type ContextDefaults, needsExplicitCwd, resolveContext } from './context.js';
import { type CredentialIds, checkCredentialIds } from './credentials.js';
import { type Callable, type CallOutcome, type ClientChannel, executeCall, type PreparedCall, type RuntimeCore } from './execute.js';
import type { Execution, Executor } from './executor.js';
import { monotonicMs } from '../platform/clock.js';

export type { Callable, CallOutcome, ClientChannel, PreparedCall, RuntimeCore, TerminalState } from './execute.js';

export interface InvokeRequest {
  commandId: string;
  /** Command arguments, without `context` and `credentials`. */
  arguments: Record<string, unknown>;
  /** Raw slot → vault record id mapping as received (MCP `credentials`, CLI `--credential`). */
  credentials?: unknown;
  /** Raw per-call context as received (MCP); the CLI passes its globals as defaults instead. */
  context?: unknown;
}

export interface CallDefaults extends ContextDefaults {
  /** Apply the HTTP working-directory rule (cwd-bound commands need an absolute context.cwd). */
  httpCwdRule?: boolean;
  /** Require an absolute cwd whatever the command (HTTP job targets). */
  forceExplicitCwd?: boolean;
}

export interface InvokeOptions {
  transport: 'cli' | 'mcp';
  defaults: CallDefaults;
  /** External cancellation (interrupt, protocol cancel, shutdown). */
  signal?: AbortSignal | undefined;
  /** Progress, log messages and stream control for the client (MCP). */
  client?: ClientChannel | undefined;
  /** Run in a slot of this executor (MCP). Host and job commands never take one. */
  admission?: Executor | undefined;
  /** What the `command.completed` record says about the call besides its outcome. */
  log: {
    /** CLI: {argv}; MCP: the arguments as received. */
    parameters: unknown;
    requestId?: string | undefined;
    tool?: string | undefined;
    jobId?: string | undefined;
    /** monotonicMs() when the call began (the CLI counts from process start). */
    startedAt?: number | undefined;
  };
}

const NO_CREDENTIALS: CredentialIds = Object.freeze({});
/** Numeric bounds have their own code, as in the reference contract. */
const RANGE_KEYWORDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);
/**
 * Deeper arguments are refused before anything recurses over them (copy, validation, logging):
 * no schema of ours nests close to this, and unbounded recursion would end in a stack overflow.
 */
export const MAX_ARGUMENT_DEPTH = 256;

/**
 * A deep copy of JSON data (what arguments are: parsed JSON or CLI flags), several times cheaper
 * than structuredClone for the small objects a call carries. Throws INVALID_ARGUMENT past
 * MAX_ARGUMENT_DEPTH levels.
 */
export function copyJson(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_ARGUMENT_DEPTH) {
    throw new AhError({
      code: 'INVALID_ARGUMENT',
      message: `arguments are nested deeper than ${MAX_ARGUMENT_DEPTH} levels`,
      hint: 'Flatten the arguments; no command takes data nested this deep.',
    });
  }
  if (Array.isArray(value)) return value.map((v) => copyJson(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copy = copyJson((value as Record<string, unknown>)[key], depth + 1);
    // An own "__proto__" key (JSON.parse makes one) must stay a plain property, not a prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out;
}

/**
 * The one check of call arguments against a schema. Validation fills in defaults, so it works on
 * a copy and returns it; the caller's value stays as received. Throws INVALID_ARGUMENT (or
 * INVALID_RANGE for numeric bounds).
 */
export function validateArguments(
  target: Pick<Callable, 'id' | 'kind' | 'cli'> & { inputSchema: TSchema | JsonSchema },
  value: unknown,
  surface: 'cli' | 'mcp' = 'mcp',
) {
  const input = copyJson(value) as Record<string, unknown>;
  const validate = compile(target.inputSchema);
  if (validate(input)) {
    if (surface === 'mcp') refuseCliOnly(target.id, target.inputSchema, input);
    return input;
  }
  const keyword = validate.errors?.[0]?.keyword ?? '';
  const host = target.kind === 'host';
  const root = host ? 'options' : 'arguments';
  throw new AhError({
    code: RANGE_KEYWORDS.has(keyword) ? 'INVALID_RANGE' : 'INVALID_ARGUMENT',
    message: `invalid ${root} for ${host || surface === 'cli' ? commandPath(target.id) : target.id}: ${describeErrors(validate.errors, root, target.inputSchema, { surface, positionals: target.cli?.positionals ?? [] })}`,
    // A CLI user who left out a required value gets the usage line with the error.
    ...(surface === 'cli' && keyword === 'required' ? { hint: `Usage: ${usageFor(target)}` } : {}),
    // Job tools report argument errors with exit hint 2, as the reference contract does.
    exitCodeHint: target.kind === 'job' ? 2 : 1,
    domain: domainOf(target.id),
    operation: target.id,
  });
}

/** A CLI-only option (an inline token or password) never arrives over MCP: tools/list leaves it out. */
function refuseCliOnly(id: string, schema: TSchema | JsonSchema, input: Record<string, unknown>): void {
  for (const [name, hint] of cliOnlyFields(schema)) {
    if (input[name] === undefined) continue;
    throw new AhError({
      code: 'INVALID_ARGUMENT',
      // MCP diagnostics carry no hint field: the way forward goes in the message.
      message: `invalid arguments for ${id}: '${name}' is accepted from the CLI only. ${hint}`,
      hint,
      domain: domainOf(id),
      operation: id,
    });
  }
}

/** Finds the command, validates its arguments and resolves the context. Throws AhError. */
export function prepare(core: RuntimeCore, req: InvokeRequest, options: Pick<InvokeOptions, 'defaults' | 'transport'>): PreparedCall {
  const extra = core.extra?.get(req.commandId);
  const snapshot = core.snapshot();
  const descriptor: Callable | undefined = extra ?? snapshot.get(req.commandId);
  if (!descriptor) {
    throw new AhError({ code: 'TYPED_COMMAND_NOT_FOUND', message: `unknown command '${req.commandId}'`, hint: "Run 'ah --help'." });
  }
  const domain = domainOf(descriptor.id);
  if (!extra && !snapshot.isEnabled(domain)) {
    throw new AhError({
      code: 'DOMAIN_DISABLED',
      message: `the '${domain}' domain is disabled`,
      hint:
        options.transport === 'mcp'
          ? `Call ah.plugins.enable with domain '${domain}' to enable it.`
          : `Run 'ah plugins enable ${domain}' to enable it.`,
      domain: 'plugins',
      operation: 'plugin.runtime',
    });
  }
  // Job tools take no per-call context or credentials: left in, they fail as unknown properties.
  const raw =
    descriptor.kind === 'job' && (req.context !== undefined || req.credentials !== undefined)
      ? { ...req.arguments, context: req.context, credentials: req.credentials }
      : req.arguments;
  const input = validateArguments(descriptor, raw, options.transport);
  const { defaults } = options;
  const requireAbsoluteCwd =
    defaults.httpCwdRule === true && (defaults.forceExplicitCwd === true || needsExplicitCwd(descriptor.stateless, input));
  const context = resolveContext(req.context, defaults, requireAbsoluteCwd);
  const credentialIds =
    req.credentials === undefined && descriptor.credentialSlots === undefined
      ? NO_CREDENTIALS
      : checkCredentialIds(descriptor, req.credentials);
  return { descriptor, input, context, credentialIds };
}

/** Logs one call's outcome; every diagnostic names a domain. */
function logCall(
  core: RuntimeCore,
  id: string,
  options: InvokeOptions,
  started: number,
  outcome: CallOutcome,
  admitted: boolean,
  descriptor?: Callable,
) {
  const { log } = options;
  const domain = domainOf(id);
  if (!outcome.ok) outcome.error.domain ??= domain;
  const fields = {
    transport: options.transport,
    command: id,
    parameters: log.parameters,
    durationMs: monotonicMs() - started,
    domain,
    requestId: log.requestId,
    tool: log.tool,
    jobId: log.jobId,
    executionMs: admitted ? outcome.executionMs : undefined,
    timedOut: outcome.state === 'timed_out',
  };
  logCompletion(core.log, fields, outcome.ok ? { ok: true, outcome: descriptor?.logOutcome?.(outcome.data) } : outcome);
}

/** Logs a call's outcome when it completes logically. */
function logged(
  core: RuntimeCore,
  call: PreparedCall,
  options: InvokeOptions,
  started: number,
  logical: Promise<CallOutcome>,
  admitted: boolean,
) {
  return logical.then((outcome) => {
    logCall(core, call.descriptor.id, options, started, outcome, admitted, call.descriptor);
    return outcome;
  });
}

/**
 * Starts a prepared call in an executor slot and logs it at logical completion. Throws when the
 * executor refuses it (capacity, shutdown); used for job targets, which need the handle.
 */
export function startAdmitted(core: RuntimeCore, call: PreparedCall, executor: Executor, options: InvokeOptions): Execution {
  const started = options.log.startedAt ?? monotonicMs();
  const execution = executor.start(call, { signal: options.signal, client: options.client, requestId: options.log.requestId });
  return { ...execution, logical: logged(core, call, options, started, execution.logical, true) };
}

/** Runs one call from request to logged outcome. Never rejects. */
export function invoke(core: RuntimeCore, request: InvokeRequest, options: InvokeOptions): Promise<CallOutcome> {
  const started = options.log.startedAt ?? monotonicMs();
  try {
    const call = prepare(core, request, options);
    const kind = call.descriptor.kind;
    // Host and job commands never take a slot; their targets (jobs) do.
    if (options.admission && kind !== 'job' && kind !== 'host') return startAdmitted(core, call, options.admission, options).logical;
    const { transport, signal, client } = options;
    const logical = executeCall(core, call, { transport, signal, client, requestId: options.log.requestId });
    return logged(core, call, options, started, logical, false);
  } catch (error) {
    const outcome: CallOutcome = { ok: false, state: 'failed', error: internalError(error), executionMs: 0 };
    logCall(core, request.commandId, options, started, outcome, false);
    return Promise.resolve(outcome);
  }
}
