// Browser setup routes on the real `ah mcp serve --transport http` with a real vault, over raw HTTP:
// headers, capability lifecycle, 403/405/413 cases, JSON vs HTML success, and a planted-secret sweep.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSetup } from '../../src/secrets/setup-client.js';
import { rawRequest } from '../helpers/http.js';
import { expectNowhere, FORM_TYPE, JSON_TYPE, mintRaw, startVaultServer, type VaultServer } from '../helpers/secrets.js';

let vs: VaultServer;
beforeAll(async () => {
  vs = await startVaultServer();
}, 60_000);
afterAll(async () => {
  await vs?.close();
});

const planted: Record<string, string> = {};
const capabilities: string[] = [];

function expectSetupHeaders(headers: Record<string, string | string[] | undefined>): void {
  expect(String(headers['content-security-policy'])).toMatch(/^default-src 'none'(;|$)/);
  expect(headers['cache-control']).toBe('no-store');
  expect(headers['referrer-policy']).toBe('same-origin');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['access-control-allow-origin']).toBeUndefined();
}

describe('secrets setup over the real HTTP server', () => {
  it('mints through the CLI client and renders the form without consuming it', async () => {
    const { setup_url, opened } = await openSetup({
      env: { AH_MCP_HTTP_URL: `http://127.0.0.1:${vs.port}`, AH_NO_BROWSER: '1' },
      request: { action: 'create', id: 'gh-bot', kind: 'github-token', label: 'GitHub bot' },
    });
    expect(opened).toBe(false);
    const url = new URL(setup_url);
    capabilities.push(url.searchParams.get('capability') ?? '');
    const nonces = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const res = await rawRequest(vs.port, { path: `${url.pathname}${url.search}`, headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      expectSetupHeaders(res.headers);
      const csp = String(res.headers['content-security-policy']);
      const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1] ?? '';
      expect(csp).toContain(`style-src 'nonce-${nonce}'`);
      expect(res.body).toContain(`<script nonce="${nonce}">`);
      expect(res.body).toContain(`<style nonce="${nonce}">`);
      expect(res.body).toMatch(/<input type="password" id="f-token" name="token"[^>]*autocomplete="new-password"/);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(2);
  });

  it('sends the setup headers on the capability endpoint and its errors too', async () => {
    const { res } = await mintRaw(vs.port, { action: 'create', id: 'hdr', kind: 'gitlab-token' });
    expectSetupHeaders(res.headers);
    const bad = await rawRequest(vs.port, {
      method: 'POST',
      path: '/secrets/setup/capability',
      headers: JSON_TYPE,
      body: '{"action":"x"}',
    });
    expect(bad.status).toBe(400);
    expect(bad.json<{ error: { code: string } }>().error.code).toBe('VAULT_SETUP_REQUEST_INVALID');
    expectSetupHeaders(bad.headers);
  });

  it('rejects unknown, malformed, missing and decorated capabilities with 403', async () => {
    const { path } = await mintRaw(vs.port, { action: 'create', id: 'q', kind: 'github-token' });
    const paths = [
      `/secrets/setup?capability=${'0'.repeat(64)}`,
      '/secrets/setup?capability=short',
      '/secrets/setup',
      `${path}&extra=1`,
      `${path}&${path.split('?')[1]}`,
    ];
    for (const p of paths) {
      for (const method of ['GET', 'POST']) {
        const res = await rawRequest(vs.port, { method, path: p, headers: FORM_TYPE, body: method === 'POST' ? 'token=x' : undefined });
        expect(res.status, `${method} ${p}`).toBe(403);
        expect(res.json<{ error: { code: string } }>().error.code).toBe('VAULT_SETUP_CAPABILITY_INVALID');
        expectSetupHeaders(res.headers);
      }
    }
    const html = await rawRequest(vs.port, { path: paths[0], headers: { accept: 'text/html' } });
    expect(html.status).toBe(403);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.body).toContain('Setup link rejected');
    // The real one was not harmed by any of that.
    expect((await rawRequest(vs.port, { path })).status).toBe(200);
  });

  it('answers wrong methods with 405 and Allow', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/secrets/setup', 'GET, POST'],
      ['DELETE', '/secrets/setup?capability=x', 'GET, POST'],
      ['PATCH', '/secrets/setup', 'GET, POST'],
      ['GET', '/secrets/setup/capability', 'POST'],
      ['PUT', '/secrets/setup/capability', 'POST'],
    ] as const) {
      const res = await rawRequest(vs.port, { method, path });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow).toBe(allow);
    }
    expect((await rawRequest(vs.port, { method: 'HEAD', path: '/secrets/setup' })).status).toBe(405);
  });

  it('keeps the local guard, media types and the 1 MiB body cap', async () => {
    const body = JSON.stringify({ action: 'create', id: 'x', kind: 'github-token' });
    const foreign = await rawRequest(vs.port, {
      method: 'POST',
      path: '/secrets/setup/capability',
      headers: { ...JSON_TYPE, origin: 'http://evil.example' },
      body,
    });
    expect([foreign.status, foreign.json<{ error: { code: string } }>().error.code]).toEqual([403, 'LOCAL_REQUEST_REJECTED']);
    const host = await rawRequest(vs.port, {
      method: 'POST',
      path: '/secrets/setup/capability',
      headers: JSON_TYPE,
      host: 'evil.example',
      body,
    });
    expect(host.status).toBe(403);
    const sameOrigin = await rawRequest(vs.port, {
      method: 'POST',
      path: '/secrets/setup/capability',
      headers: { ...JSON_TYPE, origin: `http://127.0.0.1:${vs.port}` },
      body,
    });
    expect(sameOrigin.status).toBe(201);
    const { path } = await mintRaw(vs.port, { action: 'create', id: 'big', kind: 'github-token' });
    const huge = await rawRequest(vs.port, { method: 'POST', path, headers: FORM_TYPE, body: `token=${'a'.repeat(1024 * 1024 + 1)}` });
    expect(huge.status).toBe(413);
    const wrongType = await rawRequest(vs.port, { method: 'POST', path, headers: JSON_TYPE, body: '{"token":"x"}' });
    expect(wrongType.status).toBe(415);
    expect((await rawRequest(vs.port, { path })).status).toBe(200);
  });

  it('saves a create with redacted JSON metadata and spends the capability', async () => {
    expect(await vs.vault.list()).toEqual([]);
    planted.json = `planted-json-${randomBytes(12).toString('hex')}`;
    const { path, capability } = await mintRaw(vs.port, { action: 'create', id: 'gl-ci', kind: 'gitlab-token', description: 'CI' });
    capabilities.push(capability);
    const unknown = await rawRequest(vs.port, { method: 'POST', path, headers: FORM_TYPE, body: `token=${planted.json}&user=x` });
    expect(unknown.status).toBe(400);
    expect(unknown.json<{ error: { code: string } }>().error.code).toBe('VAULT_SETUP_SUBMISSION_INVALID');
    const saved = await rawRequest(vs.port, {
      method: 'POST',
      path,
      headers: { ...FORM_TYPE, accept: 'application/json' },
      body: `token=${planted.json}`,
    });
    expect(saved.status).toBe(200);
    expectSetupHeaders(saved.headers);
    expect(saved.json()).toEqual({
      status: 'saved',
      action: 'create',
      secret: { id: 'gl-ci', kind: 'gitlab-token', label: 'gl-ci', description: 'CI' },
    });
    const reused = await rawRequest(vs.port, { method: 'POST', path, headers: FORM_TYPE, body: `token=${planted.json}` });
    expect(reused.status).toBe(403);
    expect((await rawRequest(vs.port, { path })).status).toBe(403);
    const taken = await rawRequest(vs.port, {
      method: 'POST',
      path: '/secrets/setup/capability',
      headers: JSON_TYPE,
      body: JSON.stringify({ action: 'create', id: 'gl-ci', kind: 'gitlab-token' }),
    });
    expect([taken.status, taken.json<{ error: { code: string } }>().error.code]).toEqual([409, 'VAULT_SECRET_EXISTS']);
  });

  it('shows vault validation failures without values and keeps the capability live', async () => {
    planted.invalid = `planted-invalid-${randomBytes(12).toString('hex')}`;
    const { path, capability } = await mintRaw(vs.port, { action: 'create', id: 'pg', kind: 'postgres' });
    capabilities.push(capability);
    const body = (port: string) => `host=db&port=${port}&user=u&password=${planted.invalid}&sslmode=require`;
    const bad = await rawRequest(vs.port, { method: 'POST', path, headers: FORM_TYPE, body: body('99999') });
    expect(bad.status).toBe(400);
    expect(bad.json<{ error: { code: string } }>().error.code).toBe('VAULT_INVALID_SECRET');
    expect(bad.body).not.toContain(planted.invalid);
    const ok = await rawRequest(vs.port, { method: 'POST', path, headers: FORM_TYPE, body: body('5432') });
    expect(ok.status).toBe(200);
  });

  it('saves an edit of the stored kind with an HTML confirmation', async () => {
    planted.html = `planted-html-${randomBytes(12).toString('hex')}`;
    const missing = await rawRequest(vs.port, {
      method: 'POST',
      path: '/secrets/setup/capability',
      headers: JSON_TYPE,
      body: JSON.stringify({ action: 'edit', id: 'nope' }),
    });
    expect([missing.status, missing.json<{ error: { code: string } }>().error.code]).toEqual([404, 'VAULT_SECRET_NOT_FOUND']);
    const { path, capability } = await mintRaw(vs.port, { action: 'edit', id: 'gl-ci', label: 'GitLab CI' });
    capabilities.push(capability);
    const form = await rawRequest(vs.port, { path });
    expect(form.body).toContain('leave empty to keep');
    expect(form.body).toContain('gitlab-token');
    const saved = await rawRequest(vs.port, {
      method: 'POST',
      path,
      headers: { ...FORM_TYPE, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      body: `token=${planted.html}`,
    });
    expect(saved.status).toBe(200);
    expect(saved.headers['content-type']).toMatch(/^text\/html/);
    expectSetupHeaders(saved.headers);
    expect(saved.body).toContain('Secret updated');
    expect(saved.body).toContain('GitLab CI');
    expect(saved.body).not.toContain(planted.html);
    expect(await vs.vault.list('gitlab-token')).toEqual([{ id: 'gl-ci', kind: 'gitlab-token', label: 'GitLab CI', description: 'CI' }]);
    expect((await vs.vault.read('gl-ci')).values).toEqual({ token: planted.html });
  });

  it('leaves no planted value or capability in server output, logs or the vault file', () => {
    expect(Object.keys(planted)).toHaveLength(3);
    const needles: Record<string, string> = { ...planted, 'master key': vs.masterKey };
    capabilities.forEach((c, i) => {
      needles[`capability ${i}`] = c;
    });
    expectNowhere({ ...vs.leakSurfaces(), 'vault file': vs.vaultBytes() }, needles);
  });
});
