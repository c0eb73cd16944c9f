// How a session's POST is answered (session-transport.ts): one JSON body when the answer is ready
// within the window, an SSE stream (priming event, resumable with Last-Event-ID) once a call runs
// longer; and the protocol refusals of the SDK transport it replaced, with the same codes.
import { writeFileSync } from 'node:fs';
import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { type HttpServer, rawRequest, startHttpServer } from '../helpers/http.js';
import { installTestPlugin } from '../helpers/plugins.js';
import { tempDir } from '../helpers/tmp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const VERSION = '2025-11-25';

async function session(s: HttpServer): Promise<Record<string, string>> {
  const init = await rawRequest(s.port, {
    method: 'POST',
    path: '/mcp',
    headers: JSON_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  expect(init.status).toBe(200);
  expect(init.headers['content-type']).toBe('application/json');
  expect(init.json()).toMatchObject({ id: 1, result: { protocolVersion: VERSION } });
  const headers = { ...JSON_HEADERS, 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': VERSION };
  const initialized = await rawRequest(s.port, {
    method: 'POST',
    path: '/mcp',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(initialized.status).toBe(202);
  return headers;
}

/** An open streaming request: its head, the text so far, and a wait for text to arrive. */
interface Streaming {
  req: ClientRequest;
  res: IncomingMessage;
  text: () => string;
  until: (pattern: RegExp) => Promise<RegExpExecArray>;
  ended: Promise<void>;
}

function streaming(port: number, method: string, headers: Record<string, string>, body?: string): Promise<Streaming> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: '/mcp', headers: { ...headers, host: `127.0.0.1:${port}` } }, (res) => {
      let text = '';
      const waiters: Array<() => void> = [];
      res.on('data', (c: Buffer) => {
        text += c.toString('utf8');
        for (const w of waiters.splice(0)) w();
      });
      const ended = new Promise<void>((done) => res.on('end', done));
      const until = async (pattern: RegExp): Promise<RegExpExecArray> => {
        const deadline = Date.now() + 10_000;
        for (;;) {
          const match = pattern.exec(text);
          if (match) return match;
          if (Date.now() > deadline) throw new Error(`no ${pattern} in ${JSON.stringify(text)}`);
          await new Promise<void>((r) => {
            waiters.push(r);
            setTimeout(r, 100);
          });
        }
      };
      resolve({ req, res, text: () => text, until, ended });
    });
    req.on('error', reject);
    cleanups.push(() => void req.destroy());
    req.end(body);
  });
}

async function gatedServer(): Promise<{ s: HttpServer; gate: string }> {
  const { env, configDir } = isolatedEnv();
  installTestPlugin(configDir);
  const s = await startHttpServer({ env });
  cleanups.push(s.stop);
  const gate = tempDir();
  cleanups.push(() => writeFileSync(join(gate, 'release'), ''));
  return { s, gate };
}

const gateCall = (id: number, gate: string, name: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'ah.testkit.gate', arguments: { dir: gate, name, context: { cwd: gate } } },
  });

describe('HTTP session answers', () => {
  it('answers quick requests with one JSON body, and a batch with an array in request order', async () => {
    const s = await startHttpServer({ env: isolatedEnv().env });
    cleanups.push(s.stop);
    const headers = await session(s);
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'hello\n');
    const call = await rawRequest(s.port, {
      method: 'POST',
      path: '/mcp',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'ah.file.read', arguments: { path: 'a.txt', context: { cwd: dir } } },
      }),
    });
    expect(call.status).toBe(200);
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers['mcp-session-id']).toBe(headers['mcp-session-id']);
    expect(Number(call.headers['content-length'])).toBe(Buffer.byteLength(call.body));
    expect(call.json()).toMatchObject({ jsonrpc: '2.0', id: 2, result: { structuredContent: { content: 'hello' } } });
    // Warm: the first tools/list of a process builds the list, which may outlast the window.
    await rawRequest(s.port, {
      method: 'POST',
      path: '/mcp',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    const batch = await rawRequest(s.port, {
      method: 'POST',
      path: '/mcp',
      headers,
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 'b', method: 'tools/list', params: {} },
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
      ]),
    });
    expect(batch.status).toBe(200);
    expect(batch.headers['content-type'], batch.body.slice(0, 300)).toBe('application/json');
    const answers = batch.json<Array<{ id: string; result: Record<string, unknown> }>>();
    expect(answers.map((a) => a.id)).toEqual(['b', 'a']);
    expect(answers[0]?.result.tools).toSatisfy((tools: unknown) => Array.isArray(tools) && tools.length > 10);
  });

  it('streams a call that outlives the window as SSE, with a priming event, and ends it with the answer', async () => {
    const { s, gate } = await gatedServer();
    const headers = await session(s);
    const open = await streaming(s.port, 'POST', headers, gateCall(5, gate, 'slow'));
    expect(open.res.statusCode).toBe(200);
    expect(open.res.headers['content-type']).toBe('text/event-stream');
    expect(open.res.headers['mcp-session-id']).toBe(headers['mcp-session-id']);
    await open.until(/^id: (\S+)\nretry: 1000\ndata: \n\n/);
    writeFileSync(join(gate, 'release'), '');
    const event = await open.until(/event: message\nid: (\S+)\ndata: (.*)\n\n/);
    expect(JSON.parse(event[2] as string)).toMatchObject({ id: 5, result: { structuredContent: { name: 'slow' } } });
    await open.ended;
  }, 30_000);

  it('lets a client that lost the stream resume it with Last-Event-ID and get the answer', async () => {
    const { s, gate } = await gatedServer();
    const headers = await session(s);
    const first = await streaming(s.port, 'POST', headers, gateCall(6, gate, 'resumed'));
    const priming = await first.until(/^id: (\S+)\n/);
    first.req.destroy();
    await new Promise((r) => setTimeout(r, 100));
    writeFileSync(join(gate, 'release'), '');
    // The answer is stored while nobody listens; the resumed stream replays it and ends.
    await new Promise((r) => setTimeout(r, 300));
    const resumed = await streaming(s.port, 'GET', { ...headers, 'last-event-id': priming[1] as string });
    expect(resumed.res.statusCode).toBe(200);
    const event = await resumed.until(/event: message\nid: \S+\ndata: (.*)\n\n/);
    expect(JSON.parse(event[1] as string)).toMatchObject({ id: 6, result: { structuredContent: { name: 'resumed' } } });
    await resumed.ended;
  }, 30_000);

  it('resumes a stream whose call still runs and delivers the answer live', async () => {
    const { s, gate } = await gatedServer();
    const headers = await session(s);
    const first = await streaming(s.port, 'POST', headers, gateCall(7, gate, 'live'));
    const priming = await first.until(/^id: (\S+)\n/);
    first.req.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const resumed = await streaming(s.port, 'GET', { ...headers, 'last-event-id': priming[1] as string });
    // A second connection to the same live stream is refused.
    const twice = await rawRequest(s.port, { method: 'GET', path: '/mcp', headers: { ...headers, 'last-event-id': priming[1] as string } });
    expect(twice.status).toBe(409);
    writeFileSync(join(gate, 'release'), '');
    const event = await resumed.until(/event: message\nid: \S+\ndata: (.*)\n\n/);
    expect(JSON.parse(event[1] as string)).toMatchObject({ id: 7, result: { structuredContent: { name: 'live' } } });
    await resumed.ended;
  }, 30_000);

  it('refuses what the protocol refuses, with the same status codes', async () => {
    const s = await startHttpServer({ env: isolatedEnv().env });
    cleanups.push(s.stop);
    const headers = await session(s);
    const post = (extra: Record<string, string>, body: string) =>
      rawRequest(s.port, { method: 'POST', path: '/mcp', headers: { ...headers, ...extra }, body });
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' });
    expect((await post({ accept: 'application/json' }, ping)).status).toBe(406);
    expect((await post({ 'content-type': 'text/plain' }, ping)).status).toBe(415);
    const version = await post({ 'mcp-protocol-version': '1999-01-01' }, ping);
    expect(version.status).toBe(400);
    expect(version.json()).toMatchObject({ error: { code: -32000 } });
    const again = await post(
      {},
      JSON.stringify({
        jsonrpc: '2.0',
        id: 4,
        method: 'initialize',
        params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
    expect(again.status).toBe(400);
    expect(again.json()).toMatchObject({ error: { code: -32600, message: 'Invalid Request: Server already initialized' } });
    const big = JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })));
    expect((await post({}, big)).status).toBe(400);
    expect((await rawRequest(s.port, { method: 'GET', path: '/mcp', headers: { ...headers, accept: 'application/json' } })).status).toBe(
      406,
    );
    // One standalone stream per session.
    const standalone = await streaming(s.port, 'GET', headers);
    expect(standalone.res.headers['content-type']).toBe('text/event-stream');
    expect((await rawRequest(s.port, { method: 'GET', path: '/mcp', headers })).status).toBe(409);
    expect((await rawRequest(s.port, { method: 'GET', path: '/mcp', headers: { ...headers, 'last-event-id': 'nope' } })).status).toBe(400);
    expect((await rawRequest(s.port, { method: 'DELETE', path: '/mcp', headers })).status).toBe(200);
    await standalone.ended;
    expect((await post({}, ping)).status).toBe(404);
  });
});
