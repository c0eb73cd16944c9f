/** Real MCP clients against the built `ah mcp serve` over stdio. */
import { type ChildProcess, spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { AH_BIN, isolatedEnv } from './cli.js';

export interface StdioServer {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  close: () => Promise<void>;
}

/** Puts the global options (--cwd, --limit) before `mcp serve` and everything else after it. */
export function serveArgv(args: readonly string[]): string[] {
  const globals: string[] = [];
  const flags: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === '--cwd' || arg === '--limit') globals.push(arg, args[++i] as string);
    else flags.push(arg);
  }
  return [...globals, 'mcp', 'serve', ...flags];
}

export async function connectStdio(
  args: string[] = [],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; protocol?: '2026-07-28' } = {},
): Promise<StdioServer> {
  const env = options.env ?? isolatedEnv().env;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [AH_BIN, ...serveArgv(args)],
    env: env as Record<string, string>,
    cwd: options.cwd ?? process.cwd(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client(
    { name: 'ah-tests', version: '1.0.0' },
    options.protocol ? { versionNegotiation: { mode: { pin: options.protocol } } } : {},
  );
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, close: () => client.close() };
}

/** A raw line-based JSON-RPC peer: full control over stdin, stdout checks and the exit code. */
export class RawStdioPeer {
  readonly child: ChildProcess;
  private buffer = '';
  readonly messages: Record<string, unknown>[] = [];
  readonly badLines: string[] = [];
  stderr = '';
  private waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;

  constructor(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
    this.child = spawn(process.execPath, [AH_BIN, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: options.env ?? isolatedEnv().env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      let nl = this.buffer.indexOf('\n');
      while (nl !== -1) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        try {
          this.messages.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          this.badLines.push(line);
        }
        nl = this.buffer.indexOf('\n');
      }
      for (const w of this.waiters.splice(0)) w();
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
    });
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  send(message: Record<string, unknown>): void {
    this.child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  async response(id: number | string, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find((m) => m.id === id && ('result' in m || 'error' in m));
      if (found) return found;
      if (Date.now() > until) throw new Error(`no response to ${id}; stderr: ${this.stderr}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }

  async initialize(protocolVersion = '2025-11-25'): Promise<Record<string, unknown>> {
    this.send({ id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const result = await this.response(0);
    this.send({ method: 'notifications/initialized' });
    return result;
  }

  async call(id: number, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<Record<string, unknown>> {
    this.send({ id, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } });
    return (await this.response(id)).result as Record<string, unknown>;
  }

  closeStdin(): void {
    this.child.stdin?.end();
  }
}

export async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
