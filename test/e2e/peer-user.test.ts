// Only the server's own OS user reaches the HTTP server: a client running as another user (here
// `nobody`, started with setpriv) gets a JSON 403 on every route, the MCP endpoint and the secrets
// setup page included, while the owner's clients connect as before.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { type HttpServer, rawRequest, startHttpServer } from '../helpers/http.js';
import { waitFor } from '../helpers/mcp.js';

function systemCodes(configDir: string): string[] {
  const dir = join(configDir, 'logs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .filter((line) => line.includes('"event":"system"'))
    .map((line) => (JSON.parse(line) as { diagnostic: { code: string } }).diagnostic.code);
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const setpriv = spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;
const canSwitch = setpriv && process.getuid?.() === 0;
const reason = !setpriv ? ' (skipped: setpriv from util-linux is not installed)' : !canSwitch ? ' (skipped: not running as root)' : '';

// A small client run as another user: it makes the requests and prints status and body per request.
const CLIENT = `
const http = require('node:http');
const port = Number(process.argv[1]);
const requests = JSON.parse(process.argv[2]);
const one = (r) => new Promise((resolve) => {
  const req = http.request({ host: '127.0.0.1', port, method: r.method, path: r.path, headers: { host: '127.0.0.1:' + port, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(r.headers || {}) } }, (res) => {
    let body = '';
    res.on('data', (c) => (body += c));
    res.on('end', () => resolve({ status: res.statusCode, body }));
  });
  req.on('error', (e) => resolve({ status: 0, body: String(e) }));
  req.end(r.body);
});
(async () => {
  // 'parallel': every request on its own connection, all at once (a burst of new connections).
  let out = [];
  if (process.argv[3] === 'parallel') out = await Promise.all(requests.map(one));
  else for (const r of requests) out.push(await one(r));
  process.stdout.write(JSON.stringify(out));
})();
`;

function runAsNobody(port: number, requests: object[], parallel = false): Promise<Array<{ status: number; body: string }>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        '-e',
        CLIENT,
        String(port),
        JSON.stringify(requests),
        parallel ? 'parallel' : 'serial',
      ],
      { cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`client as nobody exited ${code}: ${err}`));
      else resolve(JSON.parse(out) as Array<{ status: number; body: string }>);
    });
  });
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'other-user', version: '1' } },
});

describe('HTTP peer user', () => {
  it.skipIf(!canSwitch)(
    `refuses a client that runs as another OS user, and serves the owner${reason}`,
    async () => {
      const { env, configDir } = isolatedEnv();
      const s: HttpServer = await startHttpServer({ env });
      cleanups.push(s.stop);
      const results = await runAsNobody(s.port, [
        { method: 'GET', path: '/health/ready' },
        { method: 'POST', path: '/mcp', body: INIT },
        { method: 'POST', path: '/secrets/setup/capability', body: '{}' },
        { method: 'GET', path: '/secrets/setup' },
      ]);
      for (const r of results) {
        expect(r.status, r.body).toBe(403);
        const body = JSON.parse(r.body) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('PEER_USER_REJECTED');
        expect(body.error.message).toContain('uid 65534');
      }
      // The owner (this test's user) connects exactly as before.
      const owner = await rawRequest(s.port, {});
      expect(owner.status).toBe(200);
      const init = await rawRequest(s.port, {
        method: 'POST',
        path: '/mcp',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: INIT,
      });
      expect(init.status).toBe(200);
      // Each refused connection is one system record (the client above used one per request).
      await waitFor(() => systemCodes(configDir).filter((c) => c === 'PEER_USER_REJECTED').length >= results.length);
    },
    60_000,
  );

  it.skipIf(!canSwitch)(
    `tells owner and other user apart when their connections arrive in one burst${reason}`,
    async () => {
      const { env } = isolatedEnv();
      const s: HttpServer = await startHttpServer({ env });
      cleanups.push(s.stop);
      const burst = Array.from({ length: 16 }, () => ({ method: 'GET', path: '/health/ready' }));
      // Connections accepted while a check runs share the next one (peer-guard.ts): the owner's
      // and nobody's connections overlap here, and each must keep its own verdict.
      const [others, owners] = await Promise.all([runAsNobody(s.port, burst, true), Promise.all(burst.map(() => rawRequest(s.port, {})))]);
      expect(others.map((r) => r.status)).toEqual(burst.map(() => 403));
      expect(owners.map((r) => r.status)).toEqual(burst.map(() => 200));
    },
    60_000,
  );
});
