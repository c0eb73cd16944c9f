/**
 * tools/call → invoke → CallToolResult. Catalog tools take an executor slot; the job tools are
 * commands of the server's runtime core and never do. Only an unknown tool is a protocol error.
 */
import { AhError } from '../../errors.js';
import { logCompletion } from '../../logging/completion.js';
import type { Executor } from '../../runtime/executor.js';
import { type ClientChannel, invoke, type RuntimeCore } from '../../runtime/invoke.js';
import type { JobRegistry } from '../../runtime/jobs.js';
import type { LiveCatalog } from '../../runtime/live-catalog.js';
import { errorResult, successResult, type ToolResult } from './results.js';
import { toolList } from './tool-definition.js';

export interface McpCore {
  catalog: LiveCatalog;
  /** Its `extra` commands are the job tools. */
  runtime: RuntimeCore;
  executor: Executor;
  jobs: JobRegistry;
  transport: 'stdio' | 'http';
  defaults: { cwd: string; limit: number | null; timeoutMs: number };
}

export interface CallMeta {
  requestId: string;
  signal: AbortSignal;
  client?: ClientChannel | undefined;
}

/** Thrown for protocol-level problems (unknown tool); the server maps it to a JSON-RPC error. */
export class UnknownToolError extends Error {
  constructor(readonly toolName: string) {
    super(`unknown MCP tool '${toolName}'`);
  }
}

/** The command a tool name runs: a published tool, or a known command of a disabled domain. */
function commandFor(core: McpCore, name: string): string | undefined {
  const id = toolList(core.catalog.snapshot()).byName.get(name);
  if (id !== undefined) return id;
  // A disabled domain's tool is a tool error with a hint (DOMAIN_DISABLED), not an unknown tool.
  const snapshot = core.catalog.snapshot();
  const unpublished = name.startsWith('ah.') ? snapshot.get(name.slice(3)) : snapshot.all.find((d) => d.mcp?.name === name);
  return unpublished?.id;
}

export async function callTool(core: McpCore, name: string, rawArgs: unknown, meta: CallMeta): Promise<ToolResult> {
  const args = (rawArgs ?? {}) as Record<string, unknown>;
  const commandId = commandFor(core, name);
  if (commandId === undefined) {
    const error = new AhError({
      code: 'TYPED_COMMAND_NOT_FOUND',
      message: `unknown MCP tool '${name}'`,
      domain: 'mcp',
      operation: 'tools/call',
    });
    const fields = { transport: 'mcp' as const, command: name, parameters: args, durationMs: 0, domain: 'mcp' };
    logCompletion(core.runtime.log, { ...fields, requestId: meta.requestId, tool: name }, { ok: false, error });
    throw new UnknownToolError(name);
  }
  const { context, credentials, ...rest } = args;
  const outcome = await invoke(
    core.runtime,
    { commandId, arguments: rest, context, credentials },
    {
      transport: 'mcp',
      defaults: { ...core.defaults, httpCwdRule: core.transport === 'http' },
      signal: meta.signal,
      client: meta.client,
      admission: core.executor,
      log: { parameters: args, requestId: meta.requestId, tool: name },
    },
  );
  if (outcome.ok) return successResult(outcome.data, meta.requestId, outcome.render, outcome.notices, outcome.content);
  return errorResult(outcome.error, { operation: commandId });
}
