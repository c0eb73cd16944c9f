// The session transport in-process: a real SDK Server behind it, real HTTP on 127.0.0.1. What a
// tool sends before its answer turns the answer into an SSE stream, in the order it was sent.
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import { Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from '../../../../test/helpers/http.js';
import { successResult } from '../results.js';
import { BoundedEventStore } from './event-store.js';
import { SessionTransport } from './session-transport.js';

const servers: HttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A result large enough to be written from its pieces (serialized.ts), with text JSON must escape. */
function bigData(n: number): Record<string, unknown> {
  const line = 'caf\u00e9 "quoted" back\\slash tab\t \u{1F600} end\n';
  return { command: 'x.big', n, content: line.repeat(3000), rows: Array.from({ length: 600 }, (_, i) => ({ i, s: `row ${i} \u00fc` })) };
}

/**
 * One session: tool `tick` sends `notes` progress notifications, then answers; tool `big` does the
 * same with a large result.
 */
async function start(): Promise<{ port: number; headers: Record<string, string> }> {
  const mcp = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  mcp.setRequestHandler('tools/list', async () => ({ tools: [] }));
  mcp.setRequestHandler('tools/call', async (request, ctx) => {
    const notes = Number((request.params.arguments as { notes?: number } | undefined)?.notes ?? 0);
    for (let n = 1; n <= notes; n += 1) {
      await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: 'p', progress: n } });
    }
    if (request.params.name === 'big') return successResult(bigData(notes), `r${notes}`) as never;
    return { content: [{ type: 'text', text: `done after ${notes}` }] };
  });
  const transport = new SessionTransport({
    sessionIdGenerator: randomUUID,
    eventStore: new BoundedEventStore(),
    retryInterval: 1000,
    onsessioninitialized: () => undefined,
    onsessionclosed: () => undefined,
  });
  await mcp.connect(transport);
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      void transport.handleRequest(req, res, text === '' ? undefined : JSON.parse(text));
    });
  });
  servers.push(http);
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as { port: number }).port;
  const init = await rawRequest(port, {
    method: 'POST',
    path: '/mcp',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  const headers = { ...HEADERS, 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': '2025-11-25' };
  await rawRequest(port, {
    method: 'POST',
    path: '/mcp',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return { port, headers };
}

const call = (id: number, notes: number, name = 'tick') =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: { notes }, _meta: { progressToken: 'p' } },
  });

/** What a large result must read as on the wire, whichever way it was written. */
const bigAnswer = (id: number, notes: number) => ({
  jsonrpc: '2.0',
  id,
  result: JSON.parse(JSON.stringify(successResult(bigData(notes), `r${notes}`))),
});

function events(body: string): { id?: string; data: string }[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const id = /^id: (.*)$/m.exec(block)?.[1];
      return { id, data: /^data: (.*)$/m.exec(block)?.[1] ?? '' };
    });
}

describe('SessionTransport', () => {
  it('answers a call that streams nothing with one JSON body', async () => {
    const { port, headers } = await start();
    const r = await rawRequest(port, { method: 'POST', path: '/mcp', headers, body: call(1, 0) });
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.json()).toMatchObject({ id: 1, result: { content: [{ text: 'done after 0' }] } });
  });

  it('streams the notifications sent before the answer, in order, after a priming event', async () => {
    const { port, headers } = await start();
    const r = await rawRequest(port, { method: 'POST', path: '/mcp', headers, body: call(2, 3) });
    expect(r.headers['content-type']).toBe('text/event-stream');
    const list = events(r.body);
    expect(list[0]?.data).toBe('');
    const messages = list.slice(1).map((e) => JSON.parse(e.data) as { method?: string; params?: { progress?: number }; id?: number });
    expect(messages.map((m) => m.params?.progress ?? `answer ${m.id}`)).toEqual([1, 2, 3, 'answer 2']);
    // Every event has its own id, so a client can resume after any of them.
    expect(new Set(list.map((e) => e.id)).size).toBe(list.length);
  });

  it('answers a batch whose calls stream as one SSE stream carrying every answer', async () => {
    const { port, headers } = await start();
    const body = JSON.stringify([JSON.parse(call(3, 0)), JSON.parse(call(4, 1))]);
    const r = await rawRequest(port, { method: 'POST', path: '/mcp', headers, body });
    expect(r.headers['content-type']).toBe('text/event-stream');
    const ids = events(r.body)
      .slice(1)
      .map((e) => (JSON.parse(e.data) as { id?: number }).id)
      .filter((id) => id !== undefined);
    expect(ids.sort()).toEqual([3, 4]);
  });

  it('writes large results from their pieces: one JSON body, an SSE event and a batch read as the same JSON', async () => {
    const { port, headers } = await start();
    const json = await rawRequest(port, { method: 'POST', path: '/mcp', headers, body: call(5, 0, 'big') });
    expect(json.headers['content-type']).toBe('application/json');
    // The declared length is the body's byte length (multi-byte text included): the body parses whole.
    expect(Number(json.headers['content-length'])).toBe(Buffer.byteLength(json.body));
    expect(json.json()).toEqual(bigAnswer(5, 0));
    // Written from the pieces (result first), not by JSON.stringify of the SDK's message (jsonrpc first).
    expect(json.body.startsWith('{"result":{"content":[{"type":"text","text":"{')).toBe(true);

    const sse = await rawRequest(port, { method: 'POST', path: '/mcp', headers, body: call(6, 1, 'big') });
    expect(sse.headers['content-type']).toBe('text/event-stream');
    const answer = events(sse.body)
      .slice(1)
      .map((e) => JSON.parse(e.data) as { id?: number })
      .find((m) => m.id === 6);
    expect(answer).toEqual(bigAnswer(6, 1));
    expect(sse.body).toContain('data: {"result":{"content":[{"type":"text","text":"{');

    const batch = JSON.stringify([JSON.parse(call(7, 0, 'big')), JSON.parse(call(8, 0))]);
    const both = await rawRequest(port, { method: 'POST', path: '/mcp', headers, body: batch });
    expect(both.headers['content-type']).toBe('application/json');
    const answers = both.json() as { id: number }[];
    expect(answers.find((a) => a.id === 7)).toEqual(bigAnswer(7, 0));
    expect(answers.find((a) => a.id === 8)).toMatchObject({ result: { content: [{ text: 'done after 0' }] } });
  });
});
