/**
 * Server factory: one low-level SDK `Server` per connection/session, all sharing the process-wide
 * core (catalog, executor, jobs, log). Our JSON Schemas are served as they are.
 */
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { ClientChannel } from '../../runtime/invoke.js';
import { VERSION } from '../../version.js';
import { type CallMeta, callTool, type McpCore, UnknownToolError } from './call.js';
import { rememberSerialized } from './serialized.js';
import { type ToolList, toolList } from './tool-definition.js';

const PROGRESS_INTERVAL_MS = 1000;
let executionSequence = 0;

/** Execution ids: `mcp:n:<num>` / `mcp:s:<str>` for the protocol id, plus a process-wide sequence. */
export function requestIdFor(id: string | number): string {
  executionSequence += 1;
  return `${typeof id === 'number' ? `mcp:n:${id}` : `mcp:s:${id}`}:e:${executionSequence}`;
}

/**
 * How long a client may reuse a tools/list result without asking again (the caching hints of MCP
 * 2026-07-28, SEP-2549, which the SDK v2 client honours on every connection). The list changes
 * only when the plugin settings do, and then every session gets notifications/tools/list_changed,
 * which drops the cached copy at once; the TTL bounds how stale a client that misses that
 * notification (HTTP without its GET stream) can be. The scope is private: the list is the same
 * for every caller of this process, but it follows this user's own plugin files and settings, so
 * a cache shared between users (a store keyed by server name and version) must not hand it on.
 */
export const TOOLS_LIST_TTL_MS = 60_000;

type ListResult = { tools: unknown[]; ttlMs: number; cacheScope: 'private' };

/** The tools/list result of a tool list (one per catalog revision), serialised once. */
const listResults = new WeakMap<ToolList, ListResult>();

function listResult(core: McpCore): ListResult {
  const list = toolList(core.catalog.snapshot());
  let result = listResults.get(list);
  if (!result) {
    result = { tools: list.tools, ttlMs: TOOLS_LIST_TTL_MS, cacheScope: 'private' };
    listResults.set(list, result);
    // Kept as bytes: the list's prose is not all ASCII, and encoding its ~350 KB to UTF-8 again
    // for every tools/list cost ~1.4 ms of server CPU on Node 20.
    rememberSerialized(result, [Buffer.from(JSON.stringify(result), 'utf8')]);
  }
  return result;
}

type Notify = (notification: { method: string; params?: Record<string, unknown> }) => Promise<void>;

/**
 * Progress for calls that carry a progress token. Free text: nothing for the first second, then at
 * most one notification per second with the handler's latest message (or the elapsed time).
 * Numeric steps from the handler go out at once, and from then on the handler owns the numbers.
 */
function progressReporter(token: string | number | undefined, notify: Notify): { progress?: ClientChannel['progress']; stop: () => void } {
  if (token === undefined) return { stop: () => undefined };
  const started = Date.now();
  let latest: string | undefined;
  let last = Number.NEGATIVE_INFINITY;
  let stepped = false;
  let stopped = false;
  const send = (progress: number, message: string | undefined, total?: number) => {
    last = progress;
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && message !== '') params.message = message;
    notify({ method: 'notifications/progress', params }).catch(() => undefined);
  };
  const timer = setInterval(() => {
    if (stopped || stepped) return;
    send(Math.max(0, last) + 1, latest ?? `running for ${Math.round((Date.now() - started) / 1000)} s`);
  }, PROGRESS_INTERVAL_MS);
  timer.unref();
  return {
    progress: (message, step) => {
      latest = message;
      if (step === undefined || stopped || !Number.isFinite(step.progress) || step.progress <= last) return;
      stepped = true;
      send(step.progress, message, step.total);
    },
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

export function createServer(core: McpCore): Server {
  const server = new Server(
    { name: 'aihelper', version: VERSION },
    {
      capabilities: { tools: { listChanged: true }, logging: {} },
      instructions:
        'AIHelper tools (ah.*) read files, search, run checks and query git in a project. Pass context.cwd with the project directory. Long calls can run as background jobs via ah.job.start.',
    },
  );
  // The result object is shared by every request of one catalog revision: nothing may mutate it.
  server.setRequestHandler('tools/list', async () => listResult(core) as never);
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const params = request.params as { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } };
    const progress = progressReporter(params._meta?.progressToken ?? ctx.mcpReq._meta?.progressToken, ctx.mcpReq.notify as Notify);
    const client: ClientChannel = {
      progress: progress.progress,
      log: (level, message) => void ctx.mcpReq.log(level, message).catch(() => undefined),
      releaseStream: () => ctx.http?.closeSSE?.(),
    };
    const meta: CallMeta = { requestId: requestIdFor(ctx.mcpReq.id), signal: ctx.mcpReq.signal, client };
    try {
      return (await callTool(core, params.name, params.arguments ?? {}, meta)) as never;
    } catch (error) {
      if (error instanceof UnknownToolError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    } finally {
      progress.stop();
    }
  });
  return server;
}
