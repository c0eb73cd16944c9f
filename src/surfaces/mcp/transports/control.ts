/** GET /health/ready and POST /control/shutdown. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLarge, readBody, sendError, sendJson } from './local-guard.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export interface Identity {
  version: string;
  pid: number;
  instanceId: string;
}

export function readiness(res: ServerResponse, identity: Identity): void {
  sendJson(res, 200, { status: 'ready', version: identity.version, pid: identity.pid, instance_id: identity.instanceId });
}

/**
 * Accepts exactly {"instance_id": "<this process's uuid>"}. A match is answered 202 before
 * shutdown proceeds; a mismatch never reveals the real id.
 */
export async function controlShutdown(
  req: IncomingMessage,
  res: ServerResponse,
  identity: Identity,
  state: { accepted: boolean },
  begin: () => void,
): Promise<void> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    sendError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'the shutdown request must be application/json');
    return;
  }
  let body: Buffer;
  try {
    body = await readBody(req);
  } catch (error) {
    if (error instanceof BodyTooLarge) sendError(res, 413, 'REQUEST_TOO_LARGE', 'the request body is larger than 1 MiB');
    else sendError(res, 400, 'INVALID_SHUTDOWN_REQUEST', 'the request body could not be read');
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    sendError(res, 400, 'INVALID_SHUTDOWN_REQUEST', 'the body is not valid JSON');
    return;
  }
  const keys = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.keys(parsed) : [];
  const id = (parsed as { instance_id?: unknown } | null)?.instance_id;
  if (keys.length !== 1 || keys[0] !== 'instance_id' || typeof id !== 'string' || !UUID.test(id)) {
    sendError(res, 400, 'INVALID_SHUTDOWN_REQUEST', 'the body must be exactly {"instance_id": "<uuid v4>"}');
    return;
  }
  if (id !== identity.instanceId) {
    sendError(res, 409, 'INSTANCE_ID_MISMATCH', 'the instance_id does not match this server; read /health/ready again');
    return;
  }
  if (state.accepted) {
    sendError(res, 409, 'SHUTDOWN_IN_PROGRESS', 'this server is already shutting down');
    return;
  }
  state.accepted = true;
  const text = JSON.stringify({ status: 'shutting_down', instance_id: identity.instanceId });
  res.writeHead(202, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(text)),
  });
  // Shutdown starts only once the 202 has been handed to the socket.
  res.end(text, begin);
}
