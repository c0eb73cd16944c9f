/** Host/Origin checks and JSON error replies shared by every HTTP route. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_BODY_BYTES = 1024 * 1024;

const LOCAL_OK = Object.freeze({ ok: true as const });
/** Allowed Host and Origin values per port, built once per port rather than per request. */
let allowed: { port: number; hosts: ReadonlySet<string>; origins: ReadonlySet<string> } | undefined;

function allowedFor(port: number): { hosts: ReadonlySet<string>; origins: ReadonlySet<string> } {
  if (allowed?.port !== port) {
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    allowed = { port, hosts: new Set(hosts), origins: new Set(hosts.map((h) => `http://${h}`)) };
  }
  return allowed;
}

/** Host must be the loopback authority of this server; Origin, when present, its exact origin. */
export function isLocalRequest(req: IncomingMessage, port: number): { ok: true } | { ok: false; reason: string } {
  const { hosts, origins } = allowedFor(port);
  const host = req.headers.host;
  if (host === undefined || !hosts.has(host.toLowerCase())) {
    return { ok: false, reason: `Host header ${host === undefined ? 'is missing' : `'${host}' is not this loopback server`}` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !origins.has(origin.toLowerCase())) {
    return { ok: false, reason: `Origin '${origin}' is not the local origin` };
  }
  return LOCAL_OK;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { code, message } }, headers);
}

export class BodyTooLarge extends Error {}

/** Reads a request body up to MAX_BODY_BYTES; throws BodyTooLarge past it. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLarge());
  // Plain stream events: an async iterator over the request costs a call more than its body.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      if (!req.complete) onError(new Error('the request ended before its body'));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
