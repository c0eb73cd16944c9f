// The setup routes in-process over real HTTP with an in-memory vault; the real server and vault are
// covered by test/integration/secrets-setup.test.ts.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from '../../../../test/helpers/http.js';
import { memoryVault } from '../../../../test/helpers/memory-vault.js';
import { openSetup } from '../../../secrets/setup-client.js';
import { isLocalRequest, sendError } from './local-guard.js';
import { createSecretsRoute } from './secrets-route.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function start(vault = memoryVault().vault): Promise<number> {
  let port = 0;
  const route = createSecretsRoute({ vault: () => vault, port: () => port });
  const server = createServer((req, res) => {
    if (!isLocalRequest(req, port).ok) return sendError(res, 403, 'LOCAL_REQUEST_REJECTED', 'no');
    void route(req, res, new URL(req.url ?? '/', `http://127.0.0.1:${port}`)).then((handled) => {
      if (!handled) sendError(res, 404, 'NOT_FOUND', 'no route');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
  return port;
}

const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };

async function mint(port: number, body: unknown): Promise<string> {
  const res = await rawRequest(port, { method: 'POST', path: '/secrets/setup/capability', headers: json, body: JSON.stringify(body) });
  expect(res.status).toBe(201);
  return new URL(res.json<{ setup_url: string }>().setup_url).search;
}

describe('secrets setup routes', () => {
  it('mints a URL that the CLI validator accepts', async () => {
    const port = await start();
    const result = await openSetup({
      env: { AH_MCP_HTTP_URL: `http://127.0.0.1:${port}/`, AH_NO_BROWSER: '1' },
      request: { action: 'create', id: 'gh', kind: 'github-token' },
    });
    expect(result.opened).toBe(false);
    expect(result.setup_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/secrets/setup\\?capability=[0-9a-f]{64}$`));
  });

  it('passes server-side refusals through the client with their codes', async () => {
    const port = await start();
    const error = await openSetup({
      env: { AH_MCP_HTTP_URL: `http://127.0.0.1:${port}`, AH_NO_BROWSER: '1' },
      request: { action: 'edit', id: 'missing' },
    }).catch((e: unknown) => e);
    expect((error as { code: string }).code).toBe('VAULT_SECRET_NOT_FOUND');
  });

  it('answers 405 with Allow, 415 for wrong media types, 400 for bad requests', async () => {
    const port = await start();
    const put = await rawRequest(port, { method: 'PUT', path: '/secrets/setup' });
    expect([put.status, put.headers.allow]).toEqual([405, 'GET, POST']);
    const get = await rawRequest(port, { method: 'GET', path: '/secrets/setup/capability' });
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
    expect(get.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    const text = await rawRequest(port, { method: 'POST', path: '/secrets/setup/capability', body: '{}' });
    expect(text.status).toBe(415);
    const bad = await rawRequest(port, { method: 'POST', path: '/secrets/setup/capability', headers: json, body: '{' });
    expect(bad.json()).toEqual({ error: { code: 'VAULT_SETUP_REQUEST_INVALID', message: 'the body is not valid JSON' } });
    const query = await mint(port, { action: 'create', id: 'a', kind: 'github-token' });
    const jsonForm = await rawRequest(port, { method: 'POST', path: `/secrets/setup${query}`, headers: json, body: '{}' });
    expect(jsonForm.status).toBe(415);
  });

  it('renders the form only for an exact, live capability query', async () => {
    const port = await start();
    const query = await mint(port, { action: 'create', id: 'a', kind: 'github-token' });
    const ok = await rawRequest(port, { path: `/secrets/setup${query}` });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('text/html; charset=utf-8');
    const nonce = /'nonce-([^']+)'/.exec(String(ok.headers['content-security-policy']))?.[1];
    expect(ok.body).toContain(`<script nonce="${nonce}">`);
    for (const path of [
      '/secrets/setup',
      '/secrets/setup?capability=',
      `/secrets/setup${query}&x=1`,
      `/secrets/setup${query}${query.replace('?', '&')}`,
    ]) {
      const res = await rawRequest(port, { path });
      expect(res.status).toBe(403);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('VAULT_SETUP_CAPABILITY_INVALID');
    }
    const html = await rawRequest(port, { path: '/secrets/setup?capability=00', headers: { accept: 'text/html' } });
    expect(html.status).toBe(403);
    expect(html.body).toContain('VAULT_SETUP_CAPABILITY_INVALID');
    expect(html.headers['cache-control']).toBe('no-store');
  });

  it('reports field problems with field names only, then saves and spends the capability', async () => {
    const { vault, writes } = memoryVault();
    const port = await start(vault);
    const query = await mint(port, { action: 'create', id: 'web', kind: 'http-basic', label: 'Web' });
    const path = `/secrets/setup${query}`;
    const unknown = await rawRequest(port, { method: 'POST', path, headers: form, body: 'username=u&password=planted-pw&extra=planted-x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).not.toContain('planted');
    expect(unknown.json<{ error: { code: string } }>().error.code).toBe('VAULT_SETUP_SUBMISSION_INVALID');
    const missing = await rawRequest(port, { method: 'POST', path, headers: form, body: 'username=u&password=' });
    expect(missing.json()).toMatchObject({ error: { code: 'VAULT_SETUP_SUBMISSION_INVALID', fields: ['password'] } });
    const saved = await rawRequest(port, { method: 'POST', path, headers: form, body: 'username=u&password=planted-pw' });
    expect(saved.status).toBe(200);
    expect(saved.json()).toEqual({
      status: 'saved',
      action: 'create',
      secret: { id: 'web', kind: 'http-basic', label: 'Web', description: null },
    });
    expect(saved.body).not.toContain('planted');
    expect(writes).toHaveLength(1);
    const again = await rawRequest(port, { method: 'POST', path, headers: form, body: 'username=u&password=p' });
    expect(again.status).toBe(403);
  });

  it('answers an HTML form post with an HTML confirmation', async () => {
    const port = await start();
    const query = await mint(port, { action: 'create', id: 'gl', kind: 'gitlab-token', description: 'CI <bot>' });
    const res = await rawRequest(port, {
      method: 'POST',
      path: `/secrets/setup${query}`,
      headers: { ...form, accept: 'text/html,application/xhtml+xml' },
      body: 'token=planted-token',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('CI &#60;bot&#62;');
    expect(res.body).toContain('id="close"');
    expect(res.body).not.toContain('planted-token');
  });

  it('still sits behind the local guard', async () => {
    const port = await start();
    const res = await rawRequest(port, {
      method: 'POST',
      path: '/secrets/setup/capability',
      headers: { ...json, origin: 'http://evil.example' },
      body: JSON.stringify({ action: 'create', id: 'x', kind: 'github-token' }),
    });
    expect(res.status).toBe(403);
  });
});
