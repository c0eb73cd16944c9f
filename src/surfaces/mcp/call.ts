/**
 * Transport-independent tools/call dispatch: catalog tools go through the executor; the job
 * tools are management calls and never take a slot.
 */
import { domainOf } from '../../catalog/descriptor.js';
import { compile, describeErrors } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import type { Executor } from '../../runtime/executor.js';
import { completionRecord, copyJson, prepareCall, type PreparedCall, type RuntimeCore } from '../../runtime/invoke.js';
import type { JobRegistry } from '../../runtime/jobs.js';
import type { LiveCatalog } from '../../runtime/live-catalog.js';
import { JOB_TOOL_SCHEMAS } from './job-tools.js';
import { errorResult, successResult, type ToolResult } from './results.js';
import { toolList } from './tools.js';

/**
 * Extra protocol-level tools for the conformance suite only: loaded from a file named by an
 * internal environment variable, never part of the shipped catalog.
 */
export interface ServerFixtures {
  tools: readonly { name: string; [key: string]: unknown }[];
  call(name: string, args: unknown, ctx: unknown): Promise<Record<string, unknown> | undefined>;
}

export interface McpCore {
  fixtures?: ServerFixtures;
  catalog: LiveCatalog;
  runtime: RuntimeCore;
  executor: Executor;
  jobs: JobRegistry;
  transport: 'stdio' | 'http';
  defaults: { cwd: string; limit: number | null; timeoutMs: number };
}

export interface CallMeta {
  requestId: string;
  signal: AbortSignal;
  onProgress?: (message: string) => void;
}

/** Thrown for protocol-level problems (unknown tool); the server maps it to a JSON-RPC error. */
export class UnknownToolError extends Error {
  constructor(readonly toolName: string) {
    super(`unknown MCP tool '${toolName}'`);
  }
}

function splitArguments(args: Record<string, unknown>): { args: Record<string, unknown>; context: unknown; credentials: unknown } {
  const { context, credentials, ...rest } = args;
  return { args: rest, context, credentials };
}

function prepare(core: McpCore, commandId: string, raw: Record<string, unknown>, forJob: boolean): PreparedCall {
  const { args, context, credentials } = splitArguments(raw);
  return prepareCall(core.catalog.snapshot(), {
    commandId,
    arguments: args,
    context,
    credentials,
    defaults: {
      cwd: core.defaults.cwd,
      limit: core.defaults.limit,
      timeoutMs: core.defaults.timeoutMs,
      // Over HTTP every job target needs an explicit absolute cwd, whatever the command.
      httpCwdRule: core.transport === 'http',
      ...(forJob && core.transport === 'http' ? { forceExplicitCwd: true } : {}),
    },
    transport: 'mcp',
  });
}

function logRejected(core: McpCore, commandId: string, tool: string, requestId: string, parameters: unknown, error: AhError): void {
  const record = completionRecord(commandId, 'mcp', parameters, 0, { ok: false, error });
  record.request_id = requestId;
  record.tool = tool;
  core.runtime.log.commandCompleted(record);
}

export async function callTool(core: McpCore, name: string, rawArgs: unknown, meta: CallMeta): Promise<ToolResult> {
  const args = (rawArgs ?? {}) as Record<string, unknown>;
  if (JOB_TOOL_SCHEMAS.has(name)) return callJobTool(core, name, args, meta);
  const entry = toolList(core.catalog.snapshot()).byName.get(name);
  if (!entry?.descriptor) {
    // A disabled domain's tool is a tool error with a hint, not an unknown tool.
    const id = name.startsWith('ah.') ? name.slice(3) : '';
    const known = core.catalog.snapshot().get(id);
    if (known) {
      const error = new AhError({
        code: 'DOMAIN_DISABLED',
        message: `the '${domainOf(id)}' domain is disabled`,
        hint: `Call ah.plugins.enable with domain '${domainOf(id)}' to enable it.`,
        domain: 'plugins',
        operation: 'plugin.runtime',
      });
      logRejected(core, id, name, meta.requestId, args, error);
      return errorResult(error);
    }
    throw new UnknownToolError(name);
  }
  const descriptor = entry.descriptor;
  let prepared: PreparedCall;
  try {
    prepared = prepare(core, descriptor.id, args, false);
  } catch (error) {
    logRejected(core, descriptor.id, name, meta.requestId, args, error as AhError);
    return errorResult(error, { domain: domainOf(descriptor.id), operation: descriptor.id });
  }
  let execution: ReturnType<Executor['start']>;
  try {
    execution = core.executor.start(prepared, {
      signal: meta.signal,
      ...(meta.onProgress ? { onProgress: meta.onProgress } : {}),
      requestId: meta.requestId,
      tool: name,
      logParameters: args,
    });
  } catch (error) {
    logRejected(core, descriptor.id, name, meta.requestId, args, error as AhError);
    return errorResult(error);
  }
  const outcome = await execution.logical;
  if (outcome.ok) return successResult(outcome.data, meta.requestId, outcome.text, outcome.notices);
  return errorResult(outcome.error, { domain: domainOf(descriptor.id), operation: descriptor.id });
}

function jobArgumentError(name: string, message: string): AhError {
  return new AhError({
    code: 'INVALID_ARGUMENT',
    message: `${name}: ${message}`,
    exitCodeHint: 2,
    domain: 'job',
    operation: name.slice(3),
  });
}

async function callJobTool(core: McpCore, name: string, args: Record<string, unknown>, meta: CallMeta): Promise<ToolResult> {
  const schemas = JOB_TOOL_SCHEMAS.get(name) as NonNullable<ReturnType<typeof JOB_TOOL_SCHEMAS.get>>;
  const validate = compile(schemas.input);
  try {
    if (!validate(copyJson(args))) throw jobArgumentError(name, describeErrors(validate.errors));
    const data = await runJobTool(core, name, args, meta);
    return successResult(data as unknown as Record<string, unknown>, meta.requestId);
  } catch (error) {
    return errorResult(error, { domain: 'job', operation: name.slice(3) });
  }
}

async function runJobTool(core: McpCore, name: string, args: Record<string, unknown>, meta: CallMeta): Promise<unknown> {
  if (name !== 'ah.job.start') {
    const jobId = args.job_id as string;
    if (name === 'ah.job.status') return core.jobs.status(jobId);
    if (name === 'ah.job.result') return core.jobs.result(jobId);
    return core.jobs.cancel(jobId);
  }
  const target = args.tool as string;
  const targetArgs = args.arguments as Record<string, unknown>;
  if (target.startsWith('ah.job.') || target === 'ah.job') throw jobArgumentError(name, 'a job cannot start another job tool');
  const entry = toolList(core.catalog.snapshot()).byName.get(target);
  if (!entry?.descriptor) {
    throw jobArgumentError(name, `unknown target tool '${target}' (use an exact published tool name)`);
  }
  const descriptor = entry.descriptor;
  const prepared = prepare(core, descriptor.id, targetArgs, true);
  // The job owns its cancellation: cancelling the job.start request itself must not cancel it.
  return core.jobs.start(target, (jobId) =>
    core.executor.start(prepared, { requestId: meta.requestId, tool: target, jobId, logParameters: targetArgs }),
  );
}
