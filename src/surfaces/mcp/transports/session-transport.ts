/**
 * One stateful Streamable HTTP session as an SDK `Transport` (the SDK's extension point), written
 * on node:http directly. The SDK's Node transport turns every request into a web `Request`, every
 * answer into a `Response` over a `ReadableStream`, and opens an SSE stream for every POST; on
 * this machine that cost the server ~1 ms of CPU per call and made the client parse SSE.
 *
 * Answers: a POST whose requests are all answered within JSON_WINDOW_MS, with nothing streamed
 * before, gets one `application/json` body (the spec lets the server choose per request). Any
 * notification or server request tied to it, or a call still running when the window ends, turns
 * the answer into an SSE stream: the priming event (resumable with Last-Event-ID), keep-alives,
 * then every message as an event stored in the session's event store. Status codes, headers and
 * error texts follow the SDK transport, so clients see the same protocol.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { messagePieces, piecesByteLength } from '../serialized.js';
import type { BoundedEventStore } from './event-store.js';
import { parseMessage } from './json-rpc.js';

type RequestId = string | number;

/** How long an answer may take and still be sent as plain JSON. */
export const JSON_WINDOW_MS = 100;
const KEEP_ALIVE_MS = 15_000;
const MAX_BATCH = 100;
const STANDALONE = '_GET_stream';

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/** Where the messages of one POST (or the standalone GET stream) go. */
interface Stream {
  id: string;
  /** The live connection, if any: a client may drop it and resume later with Last-Event-ID. */
  res: ServerResponse | undefined;
  /** 'pending' until the first byte: then either one JSON body or an SSE stream. */
  mode: 'pending' | 'sse';
  protocolVersion: string;
  requestIds: RequestId[];
  responses: Map<RequestId, JSONRPCMessage>;
  timer: NodeJS.Timeout | undefined;
  keepAlive: NodeJS.Timeout | undefined;
  /** Events already written by a replay, not to be written twice. */
  replayed?: Set<string>;
}

export interface SessionTransportOptions {
  sessionIdGenerator: () => string;
  eventStore: BoundedEventStore;
  retryInterval: number;
  onsessioninitialized: (sessionId: string) => void;
  onsessionclosed: (sessionId: string) => void;
}

function mediaTypeIsJson(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
}

type Pieces = readonly (string | Buffer)[];

/** One SSE event: the message's JSON from serialized.ts (a large result is not stringified again). */
function sseEvent(message: JSONRPCMessage, eventId: string | undefined): Pieces {
  return [`event: message\n${eventId === undefined ? '' : `id: ${eventId}\n`}data: `, ...messagePieces(message), '\n\n'];
}

/** Writes pieces as one write to the socket (corked), without joining them into one copy first. */
function writePieces(res: ServerResponse, pieces: Pieces): void {
  if (pieces.length === 1) {
    res.write(pieces[0] as string | Buffer);
    return;
  }
  res.cork();
  for (const piece of pieces) res.write(piece);
  res.uncork();
}

export class SessionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  sessionId?: string;

  private supported: string[] = SUPPORTED_PROTOCOL_VERSIONS;
  private initialized = false;
  private closed = false;
  private nextStream = 0;
  private readonly streams = new Map<string, Stream>();
  private readonly streamOfRequest = new Map<RequestId, Stream>();

  constructor(private readonly options: SessionTransportOptions) {}

  async start(): Promise<void> {}

  setSupportedProtocolVersions(versions: string[]): void {
    this.supported = versions;
  }

  private refuse(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
    this.onerror?.(new Error(message));
    const text = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
    res.end(text);
  }

  /** Session and protocol-version checks of every request after initialize; false once refused. */
  private admitted(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.initialized) {
      this.refuse(res, 400, -32000, 'Bad Request: Server not initialized');
      return false;
    }
    const id = req.headers['mcp-session-id'];
    if (id === undefined) {
      this.refuse(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      return false;
    }
    if (id !== this.sessionId) {
      this.refuse(res, 404, -32001, 'Session not found');
      return false;
    }
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !this.supported.includes(version)) {
      this.refuse(
        res,
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${this.supported.join(', ')})`,
      );
      return false;
    }
    return true;
  }

  async handleRequest(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    if (this.closed) {
      this.refuse(res, 404, -32001, 'Session not found');
      return;
    }
    if (req.method === 'POST') this.post(req, res, body);
    else if (req.method === 'GET') this.get(req, res);
    else if (req.method === 'DELETE') {
      if (!this.admitted(req, res)) return;
      this.options.onsessionclosed(this.sessionId as string);
      res.writeHead(200).end();
      await this.close();
    } else this.refuse(res, 405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
  }

  private post(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      this.refuse(res, 406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
      return;
    }
    if (!mediaTypeIsJson(req.headers['content-type'])) {
      this.refuse(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
      return;
    }
    if (Array.isArray(body) && body.length > MAX_BATCH) {
      this.refuse(res, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`);
      return;
    }
    let messages: JSONRPCMessage[];
    try {
      messages = Array.isArray(body) ? body.map((message) => parseMessage(message)) : [parseMessage(body)];
    } catch (error) {
      this.onerror?.(error as Error);
      this.refuse(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
      return;
    }
    // The method is compared first: the SDK's check is a zod parse, and a failing one builds its
    // error object (every message after the first one of a session would pay for that).
    const initialize = messages.find(
      (message) => (message as { method?: unknown }).method === 'initialize' && isInitializeRequest(message),
    ) as { params: { protocolVersion: string } } | undefined;
    if (initialize !== undefined) {
      if (this.initialized) {
        this.refuse(res, 400, -32600, 'Invalid Request: Server already initialized');
        return;
      }
      if (messages.length > 1) {
        this.refuse(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
        return;
      }
      this.sessionId = this.options.sessionIdGenerator();
      this.initialized = true;
      this.options.onsessioninitialized(this.sessionId);
    } else if (!this.admitted(req, res)) return;

    const requests = messages.filter((message) => isJSONRPCRequest(message)) as (JSONRPCMessage & { id: RequestId })[];
    if (requests.length === 0) {
      for (const message of messages) this.onmessage?.(message);
      res.writeHead(202).end();
      return;
    }
    const header = req.headers['mcp-protocol-version'];
    const stream: Stream = {
      id: `${this.sessionId}-${++this.nextStream}`,
      res,
      mode: 'pending',
      protocolVersion: initialize?.params.protocolVersion ?? (typeof header === 'string' ? header : DEFAULT_NEGOTIATED_PROTOCOL_VERSION),
      requestIds: requests.map((request) => request.id),
      responses: new Map(),
      timer: undefined,
      keepAlive: undefined,
    };
    this.streams.set(stream.id, stream);
    for (const request of requests) this.streamOfRequest.set(request.id, stream);
    // A call still running at the end of the window becomes a resumable stream.
    stream.timer = setTimeout(() => this.openStream(stream), JSON_WINDOW_MS);
    res.on('close', () => this.detach(stream, res));
    for (const message of messages) {
      const extra: MessageExtraInfo | undefined = isJSONRPCRequest(message)
        ? { closeSSEStream: () => this.closeSSEStream(message.id), closeStandaloneSSEStream: () => this.closeStandaloneSSEStream() }
        : undefined;
      this.onmessage?.(message, extra);
    }
  }

  private supportsPriming(version: string): boolean {
    return this.supported.includes(version) && version >= '2025-11-25';
  }

  /** Sends the SSE head (and the priming event) of a pending stream. */
  private openStream(stream: Stream): void {
    if (stream.mode !== 'pending') return;
    stream.mode = 'sse';
    clearTimeout(stream.timer);
    const res = stream.res;
    if (res === undefined) return;
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId as string });
    if (this.supportsPriming(stream.protocolVersion)) {
      const eventId = this.options.eventStore.store(stream.id, {} as JSONRPCMessage);
      res.write(`id: ${eventId}\nretry: ${this.options.retryInterval}\ndata: \n\n`);
    } else res.flushHeaders();
    // Answers of a batch held back while it could still be one JSON body.
    for (const held of stream.responses.values()) this.writeEvent(stream, held);
    this.keepAlive(stream);
  }

  private keepAlive(stream: Stream): void {
    stream.keepAlive = setInterval(() => stream.res?.write(': keepalive\n\n'), KEEP_ALIVE_MS);
    stream.keepAlive.unref();
  }

  /** The client dropped the connection: later events wait in the store for a resumption. */
  private detach(stream: Stream, res: ServerResponse): void {
    if (stream.res !== res) return;
    stream.res = undefined;
    clearInterval(stream.keepAlive);
    if (stream.id === STANDALONE) this.streams.delete(STANDALONE);
  }

  private end(stream: Stream): void {
    clearTimeout(stream.timer);
    clearInterval(stream.keepAlive);
    const res = stream.res;
    stream.res = undefined;
    res?.end();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const response = isResponse(message);
    const requestId = response ? message.id : options?.relatedRequestId;
    if (requestId === undefined) {
      if (response) throw new Error('Cannot send a response on a standalone SSE stream unless resuming a previous client request');
      const eventId = this.options.eventStore.store(STANDALONE, message);
      const standalone = this.streams.get(STANDALONE);
      if (standalone?.res && !standalone.replayed?.has(eventId)) writePieces(standalone.res, sseEvent(message, eventId));
      return;
    }
    const stream = this.streamOfRequest.get(requestId);
    if (stream === undefined) throw new Error(`No connection established for request ID: ${String(requestId)}`);
    if (response) stream.responses.set(requestId, message);
    const complete = response && stream.requestIds.every((id) => stream.responses.has(id));
    if (stream.mode === 'pending') {
      if (complete) {
        this.answerJson(stream);
        return;
      }
      // An answer of a batch waits for the others; anything else opens the stream.
      if (response) return;
      this.openStream(stream);
    }
    this.writeEvent(stream, message);
    if (complete) this.finish(stream);
  }

  private writeEvent(stream: Stream, message: JSONRPCMessage): void {
    const eventId = this.options.eventStore.store(stream.id, message);
    if (stream.res && !stream.replayed?.has(eventId)) writePieces(stream.res, sseEvent(message, eventId));
  }

  private answerJson(stream: Stream): void {
    const res = stream.res;
    const responses = stream.requestIds.map((id) => stream.responses.get(id) as JSONRPCMessage);
    this.finish(stream);
    if (res === undefined || res.writableEnded) return;
    const answers = responses.map((response) => messagePieces(response));
    // One answer is its JSON; a batch is the array of them.
    const body: Pieces =
      answers.length === 1 ? (answers[0] as Pieces) : ['[', ...answers.flatMap((a, i) => (i === 0 ? a : [',', ...a])), ']'];
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': String(piecesByteLength(body)),
      'mcp-session-id': this.sessionId as string,
    });
    res.cork();
    for (const piece of body) res.write(piece);
    res.end();
  }

  /** Every request of the stream is answered: it is forgotten and its connection ends. */
  private finish(stream: Stream): void {
    for (const id of stream.requestIds) this.streamOfRequest.delete(id);
    this.streams.delete(stream.id);
    if (stream.mode === 'sse') this.end(stream);
    else {
      clearTimeout(stream.timer);
      stream.res = undefined;
    }
  }

  private get(req: IncomingMessage, res: ServerResponse): void {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      this.refuse(res, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
      return;
    }
    if (!this.admitted(req, res)) return;
    const lastEventId = req.headers['last-event-id'];
    if (typeof lastEventId === 'string' && lastEventId !== '') {
      this.replay(lastEventId, res);
      return;
    }
    if (this.streams.get(STANDALONE)?.res !== undefined) {
      this.refuse(res, 409, -32000, 'Conflict: Only one SSE stream is allowed per session');
      return;
    }
    const stream = this.standalone(res);
    res.on('close', () => this.detach(stream, res));
    // Node holds a head back until the first body write: the client waits for it to know the stream is open.
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId as string }).flushHeaders();
    this.keepAlive(stream);
  }

  private standalone(res: ServerResponse): Stream {
    const stream: Stream = {
      id: STANDALONE,
      res,
      mode: 'sse',
      protocolVersion: DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
      requestIds: [],
      responses: new Map(),
      timer: undefined,
      keepAlive: undefined,
    };
    this.streams.set(STANDALONE, stream);
    return stream;
  }

  /** Resumes a stream: the events after `lastEventId`, then its live events if it still runs. */
  private replay(lastEventId: string, res: ServerResponse): void {
    const store = this.options.eventStore;
    const streamId = store.streamOf(lastEventId);
    if (!streamId) {
      this.refuse(res, 400, -32000, 'Invalid event ID format');
      return;
    }
    if (this.streams.get(streamId)?.res !== undefined) {
      this.refuse(res, 409, -32000, 'Conflict: Stream already has an active connection');
      return;
    }
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId as string }).flushHeaders();
    const replayed = new Set<string>();
    for (const [eventId, message] of store.after(lastEventId)) {
      replayed.add(eventId);
      writePieces(res, sseEvent(message, eventId));
    }
    const live = streamId === STANDALONE ? this.standalone(res) : this.streams.get(streamId);
    if (live === undefined || this.closed) {
      res.end();
      return;
    }
    live.res = res;
    live.replayed = replayed;
    res.on('close', () => this.detach(live, res));
    this.keepAlive(live);
  }

  /** Ends the stream of one request: the client reconnects with Last-Event-ID to resume it. */
  closeSSEStream(requestId: RequestId): void {
    const stream = this.streamOfRequest.get(requestId);
    if (stream === undefined) return;
    this.openStream(stream);
    this.end(stream);
  }

  /**
   * A cancelled request gets no answer (the protocol says so): its stream ends, and once no
   * request of it is left waiting, it is forgotten.
   */
  cancelled(requestId: RequestId): void {
    const stream = this.streamOfRequest.get(requestId);
    if (stream === undefined) return;
    this.closeSSEStream(requestId);
    this.streamOfRequest.delete(requestId);
    stream.requestIds = stream.requestIds.filter((id) => id !== requestId);
    if (stream.requestIds.every((id) => stream.responses.has(id))) this.finish(stream);
  }

  closeStandaloneSSEStream(): void {
    const stream = this.streams.get(STANDALONE);
    if (stream) this.end(stream);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const stream of this.streams.values()) {
      if (stream.mode === 'pending' && stream.res && !stream.res.headersSent) stream.res.writeHead(200, SSE_HEADERS);
      this.end(stream);
    }
    this.streams.clear();
    this.streamOfRequest.clear();
    this.onclose?.();
  }
}
