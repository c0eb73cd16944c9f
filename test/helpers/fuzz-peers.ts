/**
 * Peers for the fuzz suite: a raw stdio peer that checks every stdout line is a JSON-RPC message
 * and matches responses to ids in O(1), and an HTTP peer on one 2025-era session.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { AH_BIN } from './cli.js';
import { startHttpServer, type HttpServer } from './http.js';

export type Message = Record<string, unknown>;

export interface Reply {
  /** The JSON-RPC messages received for this request (a response, maybe notifications first). */
  response: Message | undefined;
  status?: number;
}

/** Resident set size of a live process, in KiB (Linux). */
export function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

export class StdioFuzzPeer {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  /** stdout lines that are not JSON or not JSON-RPC 2.0 (must stay empty). */
  readonly badLines: string[] = [];
  /** Error replies with id null (to unparsable or id-less malformed lines). */
  nullIdErrors = 0;
  stderr = '';
  private buffer = '';
  private readonly waiting = new Map<string, (m: Message) => void>();
  private readonly early = new Map<string, Message>();

  constructor(options: { cwd: string; env: NodeJS.ProcessEnv }) {
    this.child = spawn(process.execPath, [AH_BIN, 'mcp', 'serve'], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
    this.child.stdout?.on('data', (chunk: Buffer) => this.onData(chunk.toString('utf8')));
    this.child.stderr?.on('data', (chunk: Buffer) => {
      if (this.stderr.length < 64 * 1024) this.stderr += chunk.toString('utf8');
    });
    // A write after the server died must fail the test through the checks, not crash the runner.
    this.child.stdin?.on('error', () => undefined);
  }

  private onData(text: string): void {
    this.buffer += text;
    let newline = this.buffer.indexOf('\n');
    while (newline !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      this.onLine(line);
      newline = this.buffer.indexOf('\n');
    }
  }

  private onLine(line: string): void {
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      this.badLines.push(line.slice(0, 200));
      return;
    }
    if (!message || typeof message !== 'object' || message.jsonrpc !== '2.0') {
      this.badLines.push(line.slice(0, 200));
      return;
    }
    if (!('result' in message) && !('error' in message)) return;
    if (message.id === null) {
      this.nullIdErrors += 1;
      return;
    }
    const key = JSON.stringify(message.id);
    const waiter = this.waiting.get(key);
    if (waiter) {
      this.waiting.delete(key);
      waiter(message);
    } else this.early.set(key, message);
  }

  writeLine(line: string): void {
    this.child.stdin?.write(`${line}\n`);
  }

  /** Resolves with the response to `id`, or undefined after `timeoutMs`. */
  response(id: string | number, timeoutMs: number): Promise<Message | undefined> {
    const key = JSON.stringify(id);
    const early = this.early.get(key);
    if (early) {
      this.early.delete(key);
      return Promise.resolve(early);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(key);
        resolve(undefined);
      }, timeoutMs);
      this.waiting.set(key, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
  }

  async initialize(): Promise<void> {
    this.writeLine(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
      }),
    );
    const reply = await this.response('init', 20_000);
    if (!reply || !('result' in reply)) throw new Error(`initialize failed: ${JSON.stringify(reply)} ${this.stderr}`);
    this.writeLine(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }

  async close(): Promise<number | null> {
    this.child.stdin?.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}

/** Every JSON-RPC message in an HTTP response body (plain JSON, or the data lines of SSE). */
export function messagesOf(contentType: string | null, body: string): Message[] | undefined {
  try {
    if ((contentType ?? '').includes('text/event-stream')) {
      return body
        .split('\n')
        .filter((l) => l.startsWith('data:') && l.slice(5).trim() !== '')
        .map((l) => JSON.parse(l.slice(5)) as Message);
    }
    if (body.trim() === '') return [];
    const parsed = JSON.parse(body) as Message | Message[];
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return undefined;
  }
}

export class HttpFuzzPeer {
  private session = '';
  private constructor(readonly server: HttpServer) {}

  static async start(env: NodeJS.ProcessEnv): Promise<HttpFuzzPeer> {
    const peer = new HttpFuzzPeer(await startHttpServer({ env }));
    const init = await peer.post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
      }),
      false,
    );
    peer.session = init.session ?? '';
    if (!peer.session) throw new Error(`no session: ${init.status} ${init.body}`);
    await peer.post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), true);
    return peer;
  }

  get pid(): number {
    return this.server.child.pid as number;
  }

  /** One POST /mcp; `inSession` sends the session headers. Fails only on a transport error. */
  async post(body: string, inSession: boolean): Promise<{ status: number; body: string; type: string | null; session?: string }> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (inSession) {
      headers['mcp-session-id'] = this.session;
      headers['mcp-protocol-version'] = '2025-11-25';
    }
    const res = await fetch(this.server.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(20_000) });
    const text = await res.text();
    const session = res.headers.get('mcp-session-id') ?? undefined;
    return { status: res.status, body: text, type: res.headers.get('content-type'), ...(session ? { session } : {}) };
  }

  stop(): Promise<void> {
    return this.server.stop();
  }
}
