/** Starts `ah mcp serve --transport http --port 0` and speaks raw HTTP to it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { AH_BIN, isolatedEnv } from './cli.js';

export interface HttpServer {
  child: ChildProcess;
  port: number;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
  stop: () => Promise<void>;
}

export async function startHttpServer(
  /** `node`: the Node binary to run ah on (default: the one running the tests). */
  options: { env?: NodeJS.ProcessEnv; args?: string[]; globals?: string[]; port?: number; node?: string; cwd?: string } = {},
): Promise<HttpServer> {
  const child = spawn(
    options.node ?? process.execPath,
    [
      AH_BIN,
      ...(options.globals ?? []),
      'mcp',
      'serve',
      '--transport',
      'http',
      '--port',
      String(options.port ?? 0),
      ...(options.args ?? []),
    ],
    { env: options.env ?? isolatedEnv().env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    void exited.then((code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    stderr: () => stderr,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

/** A raw HTTP request with full control over Host and Origin (omit Host with host: null). */
export function rawRequest(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; host?: string | null; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.host !== null) headers.host = options.host ?? `127.0.0.1:${port}`;
    const req = request(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path ?? '/health/ready', headers, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: <T>() => JSON.parse(body) as T });
        });
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}
