/**
 * Local Streamable HTTP: one process-wide core behind http://127.0.0.1:PORT/mcp. 2025-era clients
 * get stateful sessions; 2026-07-28 clients are served per request by the SDK's modern handler.
 * Every route checks Host and Origin first; nothing sends CORS headers.
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { AhError } from '../../../errors.js';
import type { McpCore } from '../call.js';
import type { Lifecycle } from '../lifecycle.js';
import { createServer } from '../server.js';
import { controlShutdown, type Identity, readiness } from './control.js';
import { PeerGuard } from './peer-guard.js';
import {
  errorReply,
  excerptText,
  excerptValue,
  INVALID_REQUEST,
  invalidMessageReply,
  logTransportFailure,
  shapeIssue,
} from './protocol-errors.js';
import { BodyTooLarge, isLocalRequest, MAX_BODY_BYTES, readBody, sendError, sendJson } from './local-guard.js';
import { createSecretsRoute } from './secrets-route.js';
import { SessionTable } from './sessions.js';

export interface HttpOptions {
  port: number;
  version: string;
  /** Idle session expiry (30 min; tests shorten it through an internal option). */
  idleMs?: number;
  maxSessions?: number;
  /** Time to receive a whole request, headers and body (30 s; tests shorten it). */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open (60 s; tests shorten it). */
  keepAliveMs?: number;
  /** Extra routes (e.g. the secrets setup page), tried before 404. */
  routes?: ReadonlyArray<(req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean>;
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  sendError(res, 405, 'METHOD_NOT_ALLOWED', `use ${allow} on this route`, { allow });
}

export async function serveHttp(core: McpCore, lifecycle: Lifecycle, options: HttpOptions): Promise<{ port: number; identity: Identity }> {
  const identity: Identity = { version: options.version, pid: process.pid, instanceId: randomUUID() };
  const log = core.runtime.log;
  const onerror = (error: Error) => {
    process.stderr.write(`ah: mcp http: ${error.message}\n`);
    logTransportFailure(log, { transport: 'http', code: 'MCP_TRANSPORT_ERROR', message: error.message });
  };
  const sessions = new SessionTable({
    idleMs: options.idleMs ?? 30 * 60 * 1000,
    maxSessions: options.maxSessions ?? 1000,
    createServer: () => createServer(core),
    onerror,
  });
  const modern = createMcpHandler(() => createServer(core), { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES, onerror });
  const modernNode = toNodeHandler(modern, { maxRequestBodySize: MAX_BODY_BYTES, onerror });
  const peerGuard = new PeerGuard(log);
  const unsubscribe = core.catalog.onChange(() => {
    sessions.broadcastToolsChanged();
    modern.notify.toolsChanged();
  });
  const shutdownState = { accepted: false };
  // MCP POSTs still being answered. Shutdown closes admission at once (draining) but lets these
  // finish, calls it cancels answering at once, before sessions and connections close: a client
  // gets its EXECUTION_CANCELLED answer instead of a stream that just ends.
  let draining = false;
  let answering = 0;
  const idleWaiters: (() => void)[] = [];
  const answered = () => {
    answering -= 1;
    if (answering === 0) for (const resolve of idleWaiters.splice(0)) resolve();
  };
  const allAnswered = () => (answering === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve)));
  let boundPort = options.port;
  const secretsSetup = createSecretsRoute({ vault: () => core.catalog.vault, port: () => boundPort });

  async function handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
      methodNotAllowed(res, 'GET, POST, DELETE');
      return;
    }
    if (draining) {
      sendJson(res, 503, { jsonrpc: '2.0', error: { code: -32000, message: 'server is shutting down' }, id: null });
      return;
    }
    let parsed: unknown;
    if (req.method === 'POST') {
      answering += 1;
      res.once('close', answered);
      let body: Buffer;
      try {
        body = await readBody(req);
      } catch (error) {
        const large = error instanceof BodyTooLarge;
        if (large) sendError(res, 413, 'REQUEST_TOO_LARGE', 'the request body is larger than 1 MiB');
        else sendError(res, 400, 'INVALID_REQUEST', 'the request body could not be read');
        logTransportFailure(log, {
          transport: 'http',
          code: large ? 'MCP_MESSAGE_TOO_LARGE' : 'MCP_TRANSPORT_ERROR',
          message: large ? 'a request body over 1 MiB was refused' : 'a request body could not be read',
        });
        return;
      }
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        logTransportFailure(log, {
          transport: 'http',
          code: 'MCP_PROTOCOL_ERROR',
          message: 'a request body is not valid JSON',
          excerpt: excerptText(body.subarray(0, 1024).toString('utf8')),
          replied: -32700,
        });
        const text = JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(text);
        return;
      }
    }
    const legacy =
      req.headers['mcp-session-id'] !== undefined ||
      req.method !== 'POST' ||
      (await isLegacyRequest(await toWebRequest(req, parsed), parsed));
    if (legacy) {
      // The session transport answers a malformed message with -32700 and id null; answer
      // -32600 with the request's id, as stdio and the modern handler do.
      const issue = req.method === 'POST' ? shapeIssue(parsed) : undefined;
      if (issue !== undefined) {
        const reply = invalidMessageReply(parsed, undefined) ?? errorReply(null, INVALID_REQUEST, 'Invalid Request');
        reply.error.message = `Invalid Request: ${issue}`;
        logTransportFailure(log, {
          transport: 'http',
          code: 'MCP_PROTOCOL_ERROR',
          message: `invalid JSON-RPC message: ${issue}`,
          excerpt: excerptValue(parsed),
          replied: INVALID_REQUEST,
        });
        sendJson(res, 400, reply);
        return;
      }
      await sessions.handle(req, res, parsed);
    } else await modernNode(req, res, parsed);
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Decided once per connection, in a check it may share with others accepted alongside it
    // (peer-guard.ts); a request waits for it only while it runs.
    const known = peerGuard.rejection(req.socket);
    const peer = known instanceof Promise ? await known : known;
    if (peer !== undefined) {
      sendError(res, 403, 'PEER_USER_REJECTED', peer, { connection: 'close' });
      return;
    }
    const local = isLocalRequest(req, boundPort);
    if (!local.ok) {
      sendError(res, 403, 'LOCAL_REQUEST_REJECTED', `request rejected: ${local.reason}`);
      return;
    }
    // The MCP endpoint itself, exactly, needs no URL parsing (every call comes here).
    if (req.url === '/mcp') {
      await handleMcp(req, res);
      return;
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${boundPort}`);
    switch (url.pathname) {
      case '/mcp':
        await handleMcp(req, res);
        return;
      case '/health/ready':
        if (req.method !== 'GET') methodNotAllowed(res, 'GET');
        else readiness(res, identity);
        return;
      case '/control/shutdown':
        if (req.method !== 'POST') methodNotAllowed(res, 'POST');
        else await controlShutdown(req, res, identity, shutdownState, () => void lifecycle.shutdown('control'));
        return;
      case '/secrets/setup':
      case '/secrets/setup/capability':
        await secretsSetup(req, res, url);
        return;
      default:
        for (const extra of options.routes ?? []) {
          if (await extra(req, res, url)) return;
        }
        sendError(res, 404, 'NOT_FOUND', `no route ${url.pathname}`);
    }
  }

  // requireHostHeader off: a request without Host gets our 403, not Node's bare 400.
  const server = createHttpServer({ maxHeaderSize: 16 * 1024, requireHostHeader: false, connectionsCheckingInterval: 1000 }, (req, res) => {
    route(req, res).catch((error: unknown) => {
      onerror(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) sendError(res, 500, 'INTERNAL_ERROR', 'the request failed');
      else res.end();
    });
  });
  // A client that stalls its headers or body loses the connection instead of holding it: Node
  // answers 408 and closes once the request is not complete in time (checked every second).
  server.requestTimeout = options.requestTimeoutMs ?? 30_000;
  server.headersTimeout = Math.min(10_000, server.requestTimeout);
  // Agents pause between bursts of calls. Node's 5 s default made the SDK client (which closes a
  // socket 1 s before the announced timeout) reopen its whole pool after every pause of 4 s or
  // more: a handshake and a peer check per connection before the first call of the burst. A
  // minute keeps the pool across an agent's usual pauses; Node still closes idle connections at
  // once on shutdown.
  server.keepAliveTimeout = options.keepAliveMs ?? 60_000;
  // Enough for many clients with a standalone SSE stream each; past it Node drops new sockets.
  server.maxConnections = 512;
  server.on('connection', (socket: Socket) => peerGuard.admit(socket));

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        new AhError({
          code: 'MCP_SERVER_FAILED',
          message:
            error.code === 'EADDRINUSE'
              ? `port ${options.port} on 127.0.0.1 is already in use`
              : `could not listen on 127.0.0.1:${options.port}`,
          cause: error.message,
          hint: error.code === 'EADDRINUSE' ? 'Stop the other server or pass a different --port.' : undefined,
          operation: 'mcp.serve',
        }),
      );
    };
    server.once('error', onError);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', onError);
      const address = server.address();
      if (address && typeof address === 'object') boundPort = address.port;
      resolve();
    });
  });
  server.on('error', (error) => void lifecycle.fail(error));

  lifecycle.onShutdown(async () => {
    unsubscribe();
    draining = true;
    server.close();
    await allAnswered();
    await Promise.all([sessions.closeAll(), modern.close().catch(() => undefined)]);
    server.closeAllConnections();
  });
  process.stderr.write(`ah: MCP server listening on http://127.0.0.1:${boundPort}/mcp (pid ${process.pid})\n`);
  return { port: boundPort, identity };
}
