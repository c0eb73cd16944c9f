// HTTP transport under hostile or unusual clients: a stalled request body loses its connection,
// a cancelled call's SSE stream ends, and a call longer than the idle window keeps its session.
import { existsSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { type HttpServer, rawRequest, startHttpServer } from '../helpers/http.js';
import { waitFor } from '../helpers/mcp.js';
import { installTestPlugin } from '../helpers/plugins.js';
import { tempDir } from '../helpers/tmp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(env: NodeJS.ProcessEnv): Promise<HttpServer> {
  const s = await startHttpServer({ env });
  cleanups.push(s.stop);
  return s;
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('HTTP hardening', () => {
  it('drops a connection whose request body stalls', async () => {
    const s = await server(isolatedEnv({ AH_INTERNAL_HTTP_REQUEST_TIMEOUT_MS: '1000' }).env);
    const socket = connect(s.port, '127.0.0.1');
    cleanups.push(() => void socket.destroy());
    let received = '';
    socket.on('data', (c: Buffer) => (received += c.toString('utf8')));
    const closed = new Promise<'closed'>((resolve) => socket.on('close', () => resolve('closed')));
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`,
    );
    const outcome = await Promise.race([closed, new Promise<'held'>((r) => setTimeout(() => r('held'), 15_000))]);
    expect(outcome).toBe('closed');
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  }, 30_000);

  it('ends the SSE stream of a call the client cancelled', async () => {
    const { env, configDir } = isolatedEnv();
    installTestPlugin(configDir);
    const s = await server(env);
    const gate = tempDir();
    cleanups.push(() => writeFileSync(join(gate, 'release'), ''));
    const init = await rawRequest(s.port, {
      method: 'POST',
      path: '/mcp',
      headers: JSON_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    const session = init.headers['mcp-session-id'] as string;
    const headers = { ...JSON_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const post = (body: object) => rawRequest(s.port, { method: 'POST', path: '/mcp', headers, body: JSON.stringify(body) });
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    // The call's POST answers with an SSE stream that stays open while the call runs.
    const ended = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: s.port, method: 'POST', path: '/mcp', headers: { ...headers, host: `127.0.0.1:${s.port}` } },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      cleanups.push(() => void req.destroy());
      req.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 5,
          method: 'tools/call',
          params: { name: 'ah.testkit.gate', arguments: { dir: gate, name: 'c', context: { cwd: gate } } },
        }),
      );
    });
    await waitFor(() => existsSync(join(gate, 'started', 'c')));
    expect((await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'test' } })).status).toBe(202);
    const outcome = await Promise.race([ended, new Promise<'open'>((r) => setTimeout(() => r('open'), 10_000))]);
    expect(outcome).not.toBe('open');
    expect((outcome as { status: number }).status).toBe(200);
  }, 30_000);

  it('answers a malformed message inside a session with -32600 and its id', async () => {
    const s = await server(isolatedEnv().env);
    const init = await rawRequest(s.port, {
      method: 'POST',
      path: '/mcp',
      headers: JSON_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    const headers = { ...JSON_HEADERS, 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': '2025-11-25' };
    for (const [id, body] of [
      [7, '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{},"extra":true}'],
      [8, '{"jsonrpc":"1.0","id":8,"method":"tools/list"}'],
      [9, '{"jsonrpc":"2.0","id":9,"method":"tools/list","params":[1]}'],
    ] as const) {
      const r = await rawRequest(s.port, { method: 'POST', path: '/mcp', headers, body });
      expect(r.status).toBe(400);
      expect(r.json()).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32600 } });
    }
  });

  it('keeps a session whose call runs longer than the idle window', async () => {
    const { env, configDir } = isolatedEnv({ AH_INTERNAL_MCP_SESSION_IDLE_MS: '300' });
    installTestPlugin(configDir);
    const s = await server(env);
    const gate = tempDir();
    const c = new Client({ name: 'idle-test', version: '1' });
    await c.connect(new StreamableHTTPClientTransport(new URL(s.url)));
    cleanups.push(() => c.close().catch(() => undefined));
    const call = c.callTool({ name: 'ah.testkit.gate', arguments: { dir: gate, name: 'long', context: { cwd: gate } } });
    await waitFor(() => existsSync(join(gate, 'started', 'long')));
    // Three idle windows pass while the call runs.
    await new Promise((r) => setTimeout(r, 1000));
    writeFileSync(join(gate, 'release'), '');
    const result = (await call) as { isError?: boolean; structuredContent?: Record<string, unknown> };
    expect(result.structuredContent).toMatchObject({ name: 'long' });
    // The session is still there right after the call.
    expect((await c.listTools()).tools.length).toBeGreaterThan(0);
  }, 30_000);

  it('keeps an idle connection for a minute, past the request timeout, and still stops at once', async () => {
    // The request timeout (and with it the headers timeout) is 1 s here: an idle connection between
    // requests must not be taken for a stalled request.
    const s = await server(isolatedEnv({ AH_INTERNAL_HTTP_REQUEST_TIMEOUT_MS: '1000' }).env);
    const connection = keptConnection(s.port);
    cleanups.push(connection.close);
    const first = await connection.get('/health/ready');
    expect(first).toMatch(/^HTTP\/1\.1 200/);
    expect(first).toMatch(/\r\nKeep-Alive: timeout=60\r\n/i);
    await new Promise((r) => setTimeout(r, 2500));
    expect(connection.closed()).toBe(false);
    expect(await connection.get('/health/ready')).toMatch(/^HTTP\/1\.1 200/);
    // Shutdown does not wait for the idle connection.
    const started = Date.now();
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
  }, 30_000);

  it('closes a connection idle for longer than the keep-alive window', async () => {
    const s = await server(isolatedEnv({ AH_INTERNAL_HTTP_KEEP_ALIVE_MS: '300' }).env);
    const connection = keptConnection(s.port);
    cleanups.push(connection.close);
    expect(await connection.get('/health/ready')).toMatch(/^HTTP\/1\.1 200/);
    await waitFor(() => connection.closed(), 5000);
  }, 30_000);
});

/** One raw keep-alive connection: each get sends a request and resolves with its whole response. */
function keptConnection(port: number) {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  let waiting: (() => void) | null = null;
  socket.on('data', (c: Buffer) => {
    received += c.toString('utf8');
    waiting?.();
  });
  socket.on('close', () => {
    closed = true;
    waiting?.();
  });
  return {
    closed: () => closed,
    close: () => void socket.destroy(),
    get: (path: string) =>
      new Promise<string>((resolve, reject) => {
        received = '';
        waiting = () => {
          const end = received.indexOf('\r\n\r\n');
          const length = /\r\ncontent-length: (\d+)/i.exec(received);
          if (end !== -1 && length && received.length >= end + 4 + Number(length[1])) resolve(received);
          else if (closed) reject(new Error(`connection closed after: ${received}`));
        };
        socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      }),
  };
}
