/**
 * The stdio wire: newline-delimited JSON-RPC on a pair of streams, as an SDK `Transport` handed to
 * the SDK's serveStdio (its extension point), in place of the SDK's StdioServerTransport. What
 * it adds: every malformed line is answered (-32700 for text that is not JSON, -32600 with the
 * request's id when one is readable) and logged instead of being dropped; a line over the cap is
 * answered and skipped with a bounded buffer instead of closing the transport; results
 * serialized ahead (the tools/list result, large tool results: serialized.ts) are written as
 * they are; the replies of one turn of the event loop leave in one write; and the end of stdin
 * ends only the input: every request read before it is still answered (see `answered`), and the
 * output stays open until the owner closes the transport.
 */
import { type JSONRPCMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE, type Transport } from '@modelcontextprotocol/server';
import type { Writable } from 'node:stream';
import type { EventLog } from '../../../logging/types.js';
import { messagePieces } from '../serialized.js';
import { parseMessage } from './json-rpc.js';
import {
  type ErrorReply,
  errorReply,
  excerptText,
  excerptValue,
  INVALID_REQUEST,
  invalidMessageReply,
  logTransportFailure,
  PARSE_ERROR,
  schemaIssue,
} from './protocol-errors.js';

/** Longest accepted line (the SDK's own stdio cap). */
export const MAX_LINE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;
/** How much of an oversized line is kept to find its id. */
const ID_PREFIX_BYTES = 4096;
const NEWLINE = 0x0a;

/**
 * The id of an oversized request, read only when it is the first or second top-level key (after
 * "jsonrpc"): anchored at the start of the object, so a nested "id" can never be mistaken for it.
 */
const LEADING_ID = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"]*"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}(?![\d.eE])|"(?:[^"\\]|\\.){0,256}")/;

function leadingId(prefix: string): string | number | null {
  const match = LEADING_ID.exec(prefix);
  if (!match) return null;
  const raw = match[1] as string;
  try {
    return JSON.parse(raw) as string | number;
  } catch {
    return null;
  }
}

/** A request id as a set key: 1 and "1" are different ids. */
function requestKey(id: unknown): string {
  return typeof id === 'string' ? `s${id}` : `n${String(id)}`;
}

export interface LineTransportOptions {
  input: NodeJS.ReadableStream & { pause(): unknown; readableEnded?: boolean; destroyed?: boolean };
  output: NodeJS.WritableStream;
  log: EventLog;
  /**
   * Called once, on the first of: the end of stdin ('stdin-eof': the output stays open for the
   * answers still owed), a failed output, or the owner closing the transport.
   */
  onClosed: (reason: 'stdin-eof' | 'output-error' | 'transport-close') => void;
  maxLineBytes?: number;
}

/** From this length on a run of text pieces is encoded here rather than by the stream (see encodeText). */
const ENCODE_MIN_CHARS = 64 * 1024;

/**
 * The bytes of a run of text pieces. Short runs go to the stream as text. Long ones are encoded
 * piece by piece into one buffer sized by Buffer.byteLength: on Node 20 that takes 3 ms for a 4 MB
 * result here, where the stream's own conversion of the joined string (Buffer.from of a
 * concatenated rope) takes 12–15 ms.
 */
function encodeText(run: string[]): string | Buffer {
  let chars = 0;
  for (const piece of run) chars += piece.length;
  if (chars < ENCODE_MIN_CHARS) return run.length === 1 ? (run[0] as string) : run.join('');
  let bytes = 0;
  for (const piece of run) bytes += Buffer.byteLength(piece, 'utf8');
  const buffer = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (const piece of run) at += buffer.write(piece, at, 'utf8');
  return buffer;
}

/**
 * The chunks of a batch: runs of text joined (or encoded), buffers passed as they are. Copying a
 * serialized result into one batch buffer cost more than the copy itself (a fresh 350 KB–4 MB
 * allocation per write, its pages faulted in: ~0.6 ms per tools/list here); the stream writes the
 * chunks with one writev instead.
 */
function batchChunks(pieces: (string | Buffer)[]): (string | Buffer)[] {
  const chunks: (string | Buffer)[] = [];
  let run: string[] = [];
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      run.push(piece);
      continue;
    }
    if (run.length > 0) chunks.push(encodeText(run));
    run = [];
    chunks.push(piece);
  }
  if (run.length > 0) chunks.push(encodeText(run));
  return chunks;
}

/** Writes the chunks as one writev (a corked stream); false when the stream wants a drain. */
function writeChunks(output: NodeJS.WritableStream & Partial<Pick<Writable, 'cork' | 'uncork'>>, chunks: (string | Buffer)[]): boolean {
  const corked = chunks.length > 1 && output.cork !== undefined;
  if (corked) output.cork?.();
  let ready = true;
  for (const chunk of chunks) ready = output.write(chunk);
  if (corked) output.uncork?.();
  return ready;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private readonly maxLine: number;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside an oversized line: bytes are dropped until its newline. */
  private skipping = false;
  private started = false;
  /** No more input is read (stdin ended, or the owner stopped it). */
  private inputEnded = false;
  private closed = false;
  private notified = false;
  /** Requests read and not answered yet (requestKey of their ids), and who waits for none to be left. */
  private readonly unanswered = new Set<string>();
  private answerWaiters: (() => void)[] = [];
  /** Pieces of the lines waiting for the end of this turn of the event loop (see flush), in order. */
  private outbox: (string | Buffer)[] = [];
  private batch: Promise<void> | undefined;
  private settleBatch: { resolve: () => void; reject: (error: Error) => void } | undefined;
  /** Batches whose write is still buffered in the output stream. */
  private unflushed: { resolve: () => void; reject: (error: Error) => void }[] = [];

  constructor(private readonly options: LineTransportOptions) {
    this.maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('LineTransport already started');
    this.started = true;
    const { input, output } = this.options;
    input.on('data', this.onData);
    input.on('error', this.onInputError);
    input.on('end', this.onEnd);
    input.on('close', this.onEnd);
    output.on('error', this.onOutputError);
    if (input.readableEnded || input.destroyed) setImmediate(this.onEnd);
  }

  private readonly onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let from = 0;
    while (!this.closed) {
      const newline = bytes.indexOf(NEWLINE, from);
      if (newline === -1) {
        this.keep(bytes.subarray(from));
        return;
      }
      const piece = bytes.subarray(from, newline);
      from = newline + 1;
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      if (this.pendingBytes + piece.length > this.maxLine) {
        this.oversized(piece);
        this.skipping = false;
        continue;
      }
      const line = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece], this.pendingBytes + piece.length);
      this.pending = [];
      this.pendingBytes = 0;
      this.handleLine(line);
    }
  };

  /** Holds the start of a line until its newline; past the cap, answers and skips the rest. */
  private keep(rest: Buffer): void {
    if (rest.length === 0 || this.skipping) return;
    if (this.pendingBytes + rest.length > this.maxLine) {
      this.oversized(rest);
      this.skipping = true;
      return;
    }
    // Copied: the stream may reuse its chunk buffers.
    this.pending.push(Buffer.from(rest));
    this.pendingBytes += rest.length;
  }

  private oversized(tail: Buffer): void {
    const head = this.pending.length > 0 ? Buffer.concat(this.pending) : tail;
    const prefix = head.subarray(0, ID_PREFIX_BYTES).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    const reply = errorReply(leadingId(prefix), INVALID_REQUEST, `Invalid Request: the message is larger than ${this.maxLine} bytes`);
    this.reply(reply, {
      code: 'MCP_MESSAGE_TOO_LARGE',
      message: `a stdio line over ${this.maxLine} bytes was skipped`,
      excerpt: excerptText(prefix),
    });
  }

  private handleLine(line: Buffer): void {
    let text = line.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reply(errorReply(null, PARSE_ERROR, 'Parse error'), {
        code: 'MCP_PROTOCOL_ERROR',
        message: 'a stdio line is not valid JSON',
        excerpt: excerptText(text),
      });
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseMessage(value);
    } catch (error) {
      const reply = invalidMessageReply(value, error);
      const failure = {
        code: 'MCP_PROTOCOL_ERROR' as const,
        message: `invalid JSON-RPC message: ${schemaIssue(error)}`,
        excerpt: excerptValue(value),
      };
      if (reply) this.reply(reply, failure);
      else logTransportFailure(this.options.log, { transport: 'stdio', ...failure });
      return;
    }
    if ('method' in message) {
      if ('id' in message) this.unanswered.add(requestKey(message.id));
      // The SDK sends no answer to a request its client cancelled.
      else if (message.method === 'notifications/cancelled')
        this.settle((message.params as { requestId?: unknown } | undefined)?.requestId);
    }
    this.onmessage?.(message);
  }

  /** A request's answer is on its way (or will never be owed): it no longer holds `answered`. */
  private settle(id: unknown): void {
    if (!this.unanswered.delete(requestKey(id)) || this.unanswered.size > 0) return;
    this.releaseAnswerWaiters();
  }

  private releaseAnswerWaiters(): void {
    const waiting = this.answerWaiters;
    this.answerWaiters = [];
    for (const resolve of waiting) resolve();
  }

  /**
   * Resolves once every request read so far has been answered (its answer handed to `send`) or
   * cancelled by the client, or the transport has closed. With the input ended, this is the
   * moment nothing more is owed to the client.
   */
  answered(): Promise<void> {
    if (this.unanswered.size === 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.answerWaiters.push(resolve));
  }

  private reply(
    reply: ErrorReply,
    failure: { code: 'MCP_PROTOCOL_ERROR' | 'MCP_MESSAGE_TOO_LARGE'; message: string; excerpt: string },
  ): void {
    logTransportFailure(this.options.log, { transport: 'stdio', ...failure, replied: reply.error.code });
    this.send(reply as unknown as JSONRPCMessage).catch((error: unknown) => this.onerror?.(error as Error));
  }

  private readonly onInputError = (error: Error) => {
    this.onerror?.(error);
  };

  private readonly onOutputError = (error: Error) => {
    const waiting = this.unflushed;
    this.unflushed = [];
    for (const batch of waiting) batch.reject(error);
    if (this.closed) return;
    this.onerror?.(error);
    this.shut('output-error');
  };

  private readonly onEnd = () => {
    this.endInput();
    this.notify('stdin-eof');
  };

  private notify(reason: 'stdin-eof' | 'output-error' | 'transport-close'): void {
    if (this.notified) return;
    this.notified = true;
    this.options.onClosed(reason);
  }

  /** Stops reading stdin; the requests already read are still answered. */
  endInput(): void {
    if (this.inputEnded) return;
    this.inputEnded = true;
    const { input } = this.options;
    input.off('data', this.onData);
    input.off('error', this.onInputError);
    input.off('end', this.onEnd);
    input.off('close', this.onEnd);
    if (input.listenerCount('data') === 0) input.pause();
    this.pending = [];
    this.pendingBytes = 0;
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the stdio transport is closed'));
    const response = message as { result?: unknown; id?: unknown };
    if ('id' in message && !('method' in message)) this.settle(response.id);
    // Results serialized ahead go out as they are (serialized.ts).
    this.outbox.push(...messagePieces(message), '\n');
    if (this.batch === undefined) {
      this.batch = new Promise<void>((resolve, reject) => {
        this.settleBatch = { resolve, reject };
      });
      setImmediate(this.flush);
    }
    return this.batch;
  }

  /**
   * Lines sent while one turn of the event loop runs (every call that completed in one poll phase)
   * leave in one write after it: one system call, and one read for the client, instead of one per
   * message. Every send of the batch settles with that write (backpressure: at its drain).
   */
  private readonly flush = () => {
    const pieces = this.outbox;
    const settle = this.settleBatch;
    // Already written by shut().
    if (settle === undefined) return;
    this.outbox = [];
    this.batch = undefined;
    this.settleBatch = undefined;
    const output = this.options.output as NodeJS.WritableStream & { writableEnded?: boolean; destroyed?: boolean };
    if (output.writableEnded === true || output.destroyed === true) {
      settle.reject(new Error('the stdio transport is closed'));
      return;
    }
    if (writeChunks(output, batchChunks(pieces))) settle.resolve();
    else {
      // Backpressure: this batch settles at the drain, or fails with the output (onOutputError).
      this.unflushed.push(settle);
      if (this.unflushed.length === 1) output.once('drain', this.onDrain);
    }
  };

  private readonly onDrain = () => {
    const waiting = this.unflushed;
    this.unflushed = [];
    for (const batch of waiting) batch.resolve();
  };

  async close(): Promise<void> {
    this.shut('transport-close');
  }

  private shut(reason: 'output-error' | 'transport-close'): void {
    if (this.closed) return;
    // Replies already sent still leave, as they did before the wire closed.
    this.flush();
    this.closed = true;
    this.endInput();
    this.releaseAnswerWaiters();
    this.onclose?.();
    // A closed wire leaves nobody to answer: the process shuts down rather than staying deaf.
    this.notify(reason);
  }
}
