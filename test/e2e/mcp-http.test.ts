// `ah mcp serve --transport http`: raw HTTP rules, sessions, jobs across sessions, lifecycle.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { type HttpServer, rawRequest, startHttpServer } from '../helpers/http.js';
import { waitFor } from '../helpers/mcp.js';
import { installTestPlugin } from '../helpers/plugins.js';
import { survivors } from '../helpers/process.js';
import { tempDir } from '../helpers/tmp.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(options: Parameters<typeof startHttpServer>[0] = {}): Promise<HttpServer> {
  const s = await startHttpServer(options);
  cleanups.push(s.stop);
  return s;
}

async function client(url: string, protocol?: '2026-07-28'): Promise<Client> {
  const c = new Client({ name: 'http-test', version: '1' }, protocol ? { versionNegotiation: { mode: { pin: protocol } } } : {});
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => c.close().catch(() => undefined));
  return c;
}

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, Record<string, unknown>> };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('local HTTP: transport rules', () => {
  it('reports readiness with a per-process identity that changes on restart', async () => {
    const first = await server();
    const ready = await rawRequest(first.port, {});
    expect(ready.status).toBe(200);
    const body = ready.json<{ status: string; version: string; pid: number; instance_id: string }>();
    expect(body).toEqual({
      status: 'ready',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      pid: first.child.pid,
      instance_id: expect.stringMatching(UUID),
    });
    expect((await rawRequest(first.port, {})).json()).toEqual(body);
    await first.stop();
    const second = await server({ port: first.port });
    const again = (await rawRequest(second.port, {})).json<{ instance_id: string }>();
    expect(again.instance_id).not.toBe(body.instance_id);
  });

  it('rejects foreign Host and Origin values with 403 on every route, and never sends CORS headers', async () => {
    const s = await server();
    const variants: { host?: string | null; origin?: string }[] = [
      { host: 'evil.example.com' },
      { host: `evil.example.com:${s.port}` },
      { host: `[::1]:${s.port}` },
      { host: null },
      { origin: 'http://evil.example.com' },
      { origin: 'null' },
      { origin: `https://127.0.0.1:${s.port}` },
    ];
    for (const path of ['/health/ready', '/mcp', '/control/shutdown', '/nope']) {
      for (const v of variants) {
        const r = await rawRequest(s.port, {
          path,
          method: path === '/health/ready' ? 'GET' : 'POST',
          host: v.host,
          headers: v.origin ? { origin: v.origin } : {},
        });
        expect(r.status, `${path} ${JSON.stringify(v)}`).toBe(403);
        expect(r.json()).toMatchObject({ error: { code: 'LOCAL_REQUEST_REJECTED' } });
      }
    }
    const ok = [
      await rawRequest(s.port, { host: `localhost:${s.port}` }),
      await rawRequest(s.port, { headers: { origin: `http://127.0.0.1:${s.port}` } }),
      await rawRequest(s.port, { headers: { origin: `http://localhost:${s.port}` } }),
      await rawRequest(s.port, {
        method: 'OPTIONS',
        headers: { origin: `http://127.0.0.1:${s.port}`, 'access-control-request-method': 'POST' },
      }),
    ];
    expect(ok.map((r) => r.status)).toEqual([200, 200, 200, 405]);
    for (const r of ok) expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('answers wrong methods with 405, unknown routes with 404 and large bodies with 413', async () => {
    const s = await server();
    expect((await rawRequest(s.port, { method: 'POST', path: '/health/ready' })).status).toBe(405);
    expect((await rawRequest(s.port, { method: 'GET', path: '/control/shutdown' })).status).toBe(405);
    expect((await rawRequest(s.port, { method: 'PUT', path: '/mcp' })).status).toBe(405);
    expect((await rawRequest(s.port, { path: '/elsewhere' })).status).toBe(404);
    const big = Buffer.alloc(1024 * 1024 + 10, 0x20);
    expect(
      (await rawRequest(s.port, { method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json' }, body: big })).status,
    ).toBe(413);
    expect(
      (await rawRequest(s.port, { method: 'POST', path: '/control/shutdown', headers: { 'content-type': 'application/json' }, body: big }))
        .status,
    ).toBe(413);
  });

  it('validates control shutdown requests exactly and never reveals the identity', async () => {
    const s = await server();
    const { instance_id: id } = (await rawRequest(s.port, {})).json<{ instance_id: string }>();
    const post = (body: string, type = 'application/json') =>
      rawRequest(s.port, { method: 'POST', path: '/control/shutdown', headers: { 'content-type': type }, body });
    expect((await post(JSON.stringify({ instance_id: id }), 'text/plain')).status).toBe(415);
    for (const body of [
      '{nope',
      '{}',
      JSON.stringify({ instance_id: 'not-a-uuid' }),
      JSON.stringify({ instance_id: id, extra: 1 }),
      '[]',
    ]) {
      const r = await post(body);
      expect(r.status, body).toBe(400);
      expect(r.json()).toMatchObject({ error: { code: 'INVALID_SHUTDOWN_REQUEST' } });
    }
    const other = '550e8400-e29b-41d4-a716-446655440000';
    const mismatch = await post(JSON.stringify({ instance_id: other }));
    expect(mismatch.status).toBe(409);
    expect(mismatch.json()).toMatchObject({ error: { code: 'INSTANCE_ID_MISMATCH' } });
    expect(mismatch.body).not.toContain(id);
    const accepted = await post(JSON.stringify({ instance_id: id }));
    expect(accepted.status).toBe(202);
    expect(accepted.json()).toEqual({ status: 'shutting_down', instance_id: id });
    expect(await s.exited).toBe(0);
  });

  it('accepts exactly one of two simultaneous shutdown requests and exits 0 once', async () => {
    const s = await server();
    const { instance_id: id } = (await rawRequest(s.port, {})).json<{ instance_id: string }>();
    const post = () =>
      rawRequest(s.port, {
        method: 'POST',
        path: '/control/shutdown',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ instance_id: id }),
      }).catch(() => ({ status: 0 }));
    const statuses = (await Promise.all([post(), post()])).map((r) => r.status).sort();
    expect(statuses.filter((x) => x === 202)).toHaveLength(1);
    expect(await s.exited).toBe(0);
  });

  it('fails with MCP_SERVER_FAILED when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => blocker.close(() => r())));
    const port = (blocker.address() as { port: number }).port;
    const error = (await startHttpServer({ port }).catch((e: Error) => e)) as Error;
    expect(error.message).toContain('server exited 1');
    expect(error.message).toContain(`port ${port}`);
    expect(error.message).toContain('[MCP_SERVER_FAILED]');
  });
});

describe('local HTTP: MCP sessions', () => {
  it('serves 2025-11-25 sessions and 2026-07-28 clients on one endpoint', async () => {
    const s = await server();
    const legacy = await client(s.url);
    const modern = await client(s.url, '2026-07-28');
    expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    for (const c of [legacy, modern]) {
      const result = (await c.callTool({ name: 'ah.plugins.list', arguments: {} })) as Result;
      expect(result.structuredContent).toMatchObject({ command: 'plugins.list' });
    }
  });

  it('returns 404 for unknown sessions and after DELETE', async () => {
    const s = await server();
    const init = await rawRequest(s.port, {
      method: 'POST',
      path: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(init.status).toBe(200);
    const session = init.headers['mcp-session-id'] as string;
    expect(session).toMatch(/^[\x21-\x7e]+$/);
    const list = (sid: string) =>
      rawRequest(s.port, {
        method: 'POST',
        path: '/mcp',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sid,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
    expect((await list(session)).status).toBe(200);
    expect((await list('no-such-session')).status).toBe(404);
    const bad = await rawRequest(s.port, {
      method: 'POST',
      path: '/mcp',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '1999-01-01',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    expect(bad.status).toBe(400);
    const del = await rawRequest(s.port, {
      method: 'DELETE',
      path: '/mcp',
      headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(del.status).toBe(200);
    expect((await list(session)).status).toBe(404);
  });

  it('expires idle sessions', async () => {
    const s = await server({ env: isolatedEnv({ AH_INTERNAL_MCP_SESSION_IDLE_MS: '300' }).env });
    const c = await client(s.url);
    await c.listTools();
    await new Promise((r) => setTimeout(r, 900));
    // Past the client's cache (the list's ttlMs would let it answer without asking the server).
    await expect(c.listTools(undefined, { cacheMode: 'bypass' })).rejects.toThrow();
  });

  it('applies the HTTP working-directory rule per command, and always for job targets', async () => {
    const s = await server();
    const c = await client(s.url);
    const code = async (name: string, args: Record<string, unknown>) =>
      (((await c.callTool({ name, arguments: args })) as Result)._meta?.['dev.aihelper/diagnostic']?.code as string | undefined) ?? 'ok';
    expect(await code('ah.file.read', { path: 'x' })).toBe('INVALID_CONTEXT');
    expect(await code('ah.file.read', { path: 'x', context: { cwd: 'relative/dir' } })).toBe('INVALID_CONTEXT');
    expect(await code('ah.search.text', { pattern: 'x' })).toBe('INVALID_CONTEXT');
    expect(await code('ah.run.check', { command: ['true'] })).toBe('INVALID_CONTEXT');
    expect(await code('ah.git.status', {})).toBe('INVALID_CONTEXT');
    expect(await code('ah.plugins.list', {})).toBe('ok');
    expect(await code('ah.ai.info', {})).toBe('ok');
    expect(await code('ah.job.start', { tool: 'ah.plugins.list', arguments: {} })).toBe('INVALID_CONTEXT');
    const dir = tempDir();
    expect(await code('ah.job.start', { tool: 'ah.plugins.list', arguments: { context: { cwd: dir } } })).toBe('ok');
  });

  it('shares jobs across sessions and keeps them when a session closes', async () => {
    const { env, configDir } = isolatedEnv();
    installTestPlugin(configDir);
    const s = await server({ env });
    const gate = tempDir();
    const a = await client(s.url);
    const b = await client(s.url, '2026-07-28');
    const start = (await a.callTool({
      name: 'ah.job.start',
      arguments: { tool: 'ah.testkit.gate', arguments: { dir: gate, name: 'j', context: { cwd: gate } } },
    })) as Result;
    const jobId = start.structuredContent?.job_id as string;
    await a.close();
    expect(((await b.callTool({ name: 'ah.job.status', arguments: { job_id: jobId } })) as Result).structuredContent).toMatchObject({
      status: 'running',
    });
    writeFileSync(join(gate, 'release'), '');
    await waitFor(() => existsSync(join(gate, 'finished-j')));
    await new Promise((r) => setTimeout(r, 50));
    expect(((await b.callTool({ name: 'ah.job.result', arguments: { job_id: jobId } })) as Result).structuredContent).toMatchObject({
      ready: true,
      status: 'succeeded',
    });
  });

  it('keeps cancellation session-local when two sessions use the same request id', async () => {
    const { env, configDir } = isolatedEnv();
    installTestPlugin(configDir);
    const s = await server({ env });
    const gate = tempDir();
    const a = await client(s.url);
    const b = await client(s.url);
    // Fresh clients number their requests alike, so both calls carry the same JSON-RPC id.
    const controller = new AbortController();
    const callA = a.callTool(
      { name: 'ah.testkit.gate', arguments: { dir: gate, name: 'a', context: { cwd: gate } } },
      { signal: controller.signal },
    );
    const callB = b.callTool({ name: 'ah.testkit.gate', arguments: { dir: gate, name: 'b', context: { cwd: gate } } });
    await waitFor(() => existsSync(join(gate, 'started', 'a')) && existsSync(join(gate, 'started', 'b')));
    controller.abort();
    await expect(callA).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 200));
    writeFileSync(join(gate, 'release'), '');
    expect(((await callB) as Result).structuredContent).toMatchObject({ name: 'b' });
    expect(existsSync(join(gate, 'finished-a'))).toBe(false);
  });

  it('sends list_changed to every live session', async () => {
    const s = await server();
    const clients = [await client(s.url), await client(s.url)];
    const seen = [0, 0];
    for (const [i, c] of clients.entries()) {
      c.setNotificationHandler('notifications/tools/list_changed', () => {
        seen[i] = (seen[i] ?? 0) + 1;
      });
    }
    // Each session opens its standalone GET stream on its own; give it a moment.
    await new Promise((r) => setTimeout(r, 300));
    await clients[0]?.callTool({ name: 'ah.plugins.disable', arguments: { domain: 'search' } });
    await waitFor(() => seen.every((n) => n >= 1));
  });

  it.each([
    ['2025-11-25 session', undefined],
    ['2026-07-28', '2026-07-28' as const],
  ])('answers a call in flight when SIGTERM cancels it, then exits 0 (%s)', async (_, protocol) => {
    const s = await server();
    const c = await client(s.url, protocol);
    const dir = tempDir();
    const marker = join(dir, 'started');
    const call = c.callTool({
      name: 'ah.run.check',
      arguments: {
        command: [process.execPath, '-e', `require("fs").writeFileSync(${JSON.stringify(marker)}, ""); setTimeout(()=>{}, 60000)`],
        context: { cwd: dir },
      },
    });
    await waitFor(() => existsSync(marker));
    s.child.kill('SIGTERM');
    // The answer arrives on the call's own stream before the session closes.
    const result = (await call) as Result;
    expect(result._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'EXECUTION_CANCELLED' });
    expect(await s.exited).toBe(0);
  });

  it('exits 0 on SIGTERM while jobs run, killing their process trees', async () => {
    const s = await server();
    const c = await client(s.url);
    const dir = tempDir();
    const pidFile = join(dir, 'pid');
    await c.callTool({
      name: 'ah.job.start',
      arguments: {
        tool: 'ah.run.check',
        arguments: {
          command: [
            process.execPath,
            '-e',
            `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(()=>{}, 60000)`,
          ],
          context: { cwd: dir },
        },
      },
    });
    await waitFor(() => existsSync(pidFile));
    const started = Date.now();
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5500);
    expect(await survivors([Number(readFileSync(pidFile, 'utf8'))])).toEqual([]);
  });
});
