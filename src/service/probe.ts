/** HTTP client for the managed server's readiness and control routes on 127.0.0.1. */
import { request } from 'node:http';

export type Readiness =
  /** Nothing listens on the port. */
  | { kind: 'none' }
  | { kind: 'ready'; version: string; pid: number; instance_id: string }
  /** Something listens but is not an ah server answering readiness. */
  | { kind: 'foreign'; detail: string };

interface Reply {
  status: number;
  body: string;
}

function call(port: number, method: string, path: string, body: string | undefined, timeoutMs: number): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}` };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= 64 * 1024) chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export async function probeReadiness(port: number, timeoutMs = 1500): Promise<Readiness> {
  let reply: Reply;
  try {
    reply = await call(port, 'GET', '/health/ready', undefined, timeoutMs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET') return { kind: 'none' };
    return { kind: 'foreign', detail: (error as Error).message };
  }
  if (reply.status !== 200) return { kind: 'foreign', detail: `GET /health/ready answered HTTP ${reply.status}` };
  try {
    const v = JSON.parse(reply.body) as Record<string, unknown>;
    if (v.status === 'ready' && typeof v.version === 'string' && Number.isInteger(v.pid) && typeof v.instance_id === 'string') {
      return { kind: 'ready', version: v.version, pid: v.pid as number, instance_id: v.instance_id };
    }
  } catch {
    // Falls through: not our readiness document.
  }
  return { kind: 'foreign', detail: 'GET /health/ready did not answer an ah readiness document' };
}

/** POST /control/shutdown for exactly this instance; resolves with the HTTP status (0 = no answer). */
export async function requestShutdown(port: number, instanceId: string, timeoutMs = 2000): Promise<number> {
  const reply = await call(port, 'POST', '/control/shutdown', JSON.stringify({ instance_id: instanceId }), timeoutMs).catch(() => null);
  return reply?.status ?? 0;
}
