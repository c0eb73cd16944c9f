/**
 * Stateful Streamable HTTP sessions for 2025-era clients: one SDK Server + transport per session,
 * idle expiry, and a cap on live sessions (the least recently used one is closed first).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type Server } from '@modelcontextprotocol/server';
import { BoundedEventStore } from './event-store.js';
import { SessionTransport } from './session-transport.js';

interface Session {
  id: string;
  /** The protocol version negotiated at initialize; the session is served at it. */
  version: string;
  server: Server;
  transport: SessionTransport;
  lastSeen: number;
  /** POST requests being answered; a session with one in flight is never idle. */
  inFlight: number;
}

export interface SessionOptions {
  idleMs: number;
  maxSessions: number;
  createServer: () => Server;
  onerror: (error: Error) => void;
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  const text = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/**
 * A request inside a session that names an older (still supported) protocol version is served at
 * the version the session negotiated, so per-version stream behaviour (SSE priming, resumption)
 * stays that of the session. Unsupported versions pass through and are refused with 400.
 */
function pinVersion(req: IncomingMessage, negotiated: string): void {
  const header = req.headers['mcp-protocol-version'];
  if (typeof header === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(header) && header < negotiated) {
    req.headers['mcp-protocol-version'] = negotiated;
  }
}

/**
 * A cancelled request gets no response (the protocol says so), so the answer its POST waits for
 * would never come: once a notifications/cancelled has been delivered, that answer is ended.
 */
function closeCancelledStreams(transport: SessionTransport, body: unknown): void {
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    if (!message || typeof message !== 'object') continue;
    const { method, params } = message as { method?: unknown; params?: { requestId?: unknown } };
    if (method !== 'notifications/cancelled') continue;
    const id = params?.requestId;
    if (typeof id === 'string' || typeof id === 'number') transport.cancelled(id);
  }
}

function isInitialize(body: unknown): boolean {
  return !!body && typeof body === 'object' && !Array.isArray(body) && (body as { method?: unknown }).method === 'initialize';
}

export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: SessionOptions) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(60_000, Math.floor(options.idleMs / 2))));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  private sweep(): void {
    const now = Date.now();
    for (const session of this.sessions.values()) {
      if (session.inFlight === 0 && now - session.lastSeen >= this.options.idleMs) void this.close(session.id);
    }
  }

  async close(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
  }

  /** Sends list_changed to every live session; a peer that fails is dropped. */
  broadcastToolsChanged(): void {
    for (const session of this.sessions.values()) {
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('peer timeout')), 1000).unref());
      Promise.race([session.server.sendToolListChanged(), timeout]).catch(() => void this.close(session.id));
    }
  }

  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (this.closed) {
      jsonRpcError(res, 503, -32000, 'server is shutting down');
      return;
    }
    const header = req.headers['mcp-session-id'];
    const id = Array.isArray(header) ? header[0] : header;
    if (id !== undefined) {
      const session = this.sessions.get(id);
      if (!session) {
        jsonRpcError(res, 404, -32001, 'Session not found');
        return;
      }
      session.lastSeen = Date.now();
      pinVersion(req, session.version);
      // A call longer than the idle window keeps its session: POSTs count as activity until
      // their response ends (GET streams do not: an idle client may hold one open forever).
      if (req.method === 'POST') {
        session.inFlight += 1;
        res.once('close', () => {
          session.inFlight -= 1;
          session.lastSeen = Date.now();
        });
      }
      await session.transport.handleRequest(req, res, body);
      session.lastSeen = Date.now();
      closeCancelledStreams(session.transport, body);
      return;
    }
    if (req.method !== 'POST' || !isInitialize(body)) {
      jsonRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      return;
    }
    this.makeRoom();
    const requested = (body as { params?: { protocolVersion?: unknown } }).params?.protocolVersion;
    const version = typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
    const server = this.options.createServer();
    const transport = new SessionTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(),
      retryInterval: 1000,
      onsessioninitialized: (sessionId) => {
        this.sessions.set(sessionId, { id: sessionId, version, server, transport, lastSeen: Date.now(), inFlight: 0 });
      },
      onsessionclosed: (sessionId) => {
        this.sessions.delete(sessionId);
      },
    });
    transport.onerror = this.options.onerror;
    transport.onclose = () => {
      const sessionId = transport.sessionId;
      if (sessionId) this.sessions.delete(sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** At the cap, close the least recently used session before opening another. */
  private makeRoom(): void {
    while (this.sessions.size >= this.options.maxSessions) {
      let oldest: Session | undefined;
      for (const session of this.sessions.values()) if (!oldest || session.lastSeen < oldest.lastSeen) oldest = session;
      if (!oldest) return;
      void this.close(oldest.id);
    }
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }
}
