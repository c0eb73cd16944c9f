/**
 * A loopback stand-in for a forge's REST API: routes by method and path to handlers, records every
 * request in full (method, path, query, headers, body) so tests can assert what ah sent.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  raw?: Buffer | string;
}

export type Handler = (req: Recorded, api: FakeApi) => Reply | Promise<Reply>;

export interface FakeApi {
  url: string;
  origin: string;
  requests: Recorded[];
  route(method: string, path: string | RegExp, handler: Handler | Reply): void;
  close(): Promise<void>;
}

export function fixture(domain: string, name: string): Record<string, any> {
  return JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', domain, `${name}.json`), 'utf8'));
}

export async function startFakeApi(host = '127.0.0.1', basePath = ''): Promise<FakeApi> {
  const routes: { method: string; path: string | RegExp; handler: Handler }[] = [];
  const requests: Recorded[] = [];
  let api: FakeApi;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text === '' ? undefined : text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      const recorded: Recorded = {
        method: req.method ?? 'GET',
        path: url.pathname.slice(basePath.length) || '/',
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
      };
      requests.push(recorded);
      const route = routes.find(
        (r) => r.method === recorded.method && (typeof r.path === 'string' ? r.path === recorded.path : r.path.test(recorded.path)),
      );
      const reply: Reply = route ? await route.handler(recorded, api) : { status: 404, json: { message: 'Not Found' } };
      const payload = reply.raw ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
      res.writeHead(reply.status ?? 200, { 'content-type': reply.raw ? 'application/octet-stream' : 'application/json', ...reply.headers });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  api = {
    url: `${origin}${basePath}`,
    origin,
    requests,
    route(method, path, handler) {
      routes.unshift({ method, path, handler: typeof handler === 'function' ? handler : () => handler });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}
