/**
 * The one-off commands against real loopback servers: the full outbound request, auth sources and
 * their conflicts, bodies, timeouts, retries (and the deadline), the byte cap, redirects, TLS and
 * every error code. Handlers run through their descriptors with schema defaults applied.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandDescriptor } from '../../../catalog/descriptor.js';
import { AhError } from '../../../errors.js';
import { closedPort, type Loopback, startLoopback, startSelfSignedTls } from '../../../../test/fixtures/http/loopback.js';
import { testContext, withDefaults } from '../../../../test/helpers/context.js';
import { tempDir } from '../../../../test/helpers/tmp.js';
import { get } from './get.js';
import { post } from './post.js';
import { replay } from './replay.js';
import { request } from './request.js';

let server: Loopback;
beforeAll(async () => {
  server = await startLoopback();
});
afterAll(async () => {
  await server.close();
});

type Ctx = Parameters<typeof testContext>[0];
async function call(d: CommandDescriptor<any, any>, args: Record<string, unknown>, ctx: Partial<Ctx> = {}) {
  return d.run(withDefaults(d.inputSchema, args), testContext({ cwd: '/', ...ctx }));
}
async function failure(d: CommandDescriptor<any, any>, args: Record<string, unknown>, ctx: Partial<Ctx> = {}): Promise<AhError> {
  try {
    await call(d, args, ctx);
  } catch (error) {
    if (error instanceof AhError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}
const last = () => server.requests[server.requests.length - 1];

describe('the outbound request', () => {
  it('sends method, path, query, headers and a JSON body as given', async () => {
    const out = await call(request, {
      method: 'PATCH',
      url: `${server.url}/echo/items?keep=1`,
      query: ['a=1', 'a=2', 'q=x y'],
      headers: ['X-Trace: abc', 'Accept: application/json'],
      json: { name: 'one', n: [1, 2] },
    });
    expect(last()).toMatchObject({
      method: 'PATCH',
      path: '/echo/items',
      query: { keep: ['1'], a: ['1', '2'], q: ['x y'] },
      body: '{"name":"one","n":[1,2]}',
    });
    expect(last()?.headers).toMatchObject({ 'x-trace': 'abc', accept: 'application/json', 'content-type': 'application/json' });
    expect(out).toMatchObject({ command: 'http.request', method: 'PATCH', status: 200, ok: true, body_truncated: false, truncated: false });
    expect(out.headers['x-request-id']).toBe('rid-42');
    expect(out.url).toBe(`${server.url}/echo/items?keep=1&a=1&a=2&q=x+y`);
  });

  it('sends a raw body without inventing a content type, and bodies from files', async () => {
    await call(post, { url: `${server.url}/echo`, body: 'plain text' });
    expect(last()).toMatchObject({ method: 'POST', body: 'plain text' });
    expect(last()?.headers['content-type']).toBeUndefined();
    const dir = tempDir();
    writeFileSync(join(dir, 'b.json'), '{"from":"file"}');
    writeFileSync(join(dir, 'raw.bin'), 'raw bytes');
    await call(post, { url: `${server.url}/echo`, json_file: 'b.json' }, { cwd: dir });
    expect(last()).toMatchObject({ body: '{"from":"file"}', headers: { 'content-type': 'application/json' } });
    await call(request, {
      method: 'PUT',
      url: `${server.url}/echo`,
      body_file: join(dir, 'raw.bin'),
      headers: ['Content-Type: application/octet-stream'],
    });
    expect(last()).toMatchObject({ method: 'PUT', body: 'raw bytes', headers: { 'content-type': 'application/octet-stream' } });
    writeFileSync(join(dir, 'bad.json'), '{nope');
    expect((await failure(post, { url: `${server.url}/echo`, json_file: 'bad.json' }, { cwd: dir })).code).toBe(
      'JSON_DESERIALIZATION_FAILED',
    );
    expect((await failure(post, { url: `${server.url}/echo`, body_file: 'missing.txt' }, { cwd: dir })).code).toBe('FILE_NOT_FOUND');
    expect((await failure(post, { url: `${server.url}/echo`, body_file: '.' }, { cwd: dir })).code).toBe('FILE_READ_FAILED');
  });

  it('refuses two bodies, a GET body, bad URLs, bad headers and unusable methods before sending', async () => {
    const before = server.requests.length;
    const cases: [CommandDescriptor, Record<string, unknown>][] = [
      [post, { url: `${server.url}/echo`, json: {}, body: 'x' }],
      [request, { method: 'GET', url: `${server.url}/echo`, body: 'x' }],
      [get, { url: 'not a url' }],
      [get, { url: 'ftp://127.0.0.1/x' }],
      [get, { url: `${server.url}/echo`, headers: ['Bad Name: x'] }],
      [get, { url: `${server.url}/echo`, expect_json: ['a:eq'] }],
    ];
    for (const [d, args] of cases) expect((await failure(d, args)).code, JSON.stringify(args)).toBe('INVALID_ARGUMENT');
    expect(server.requests.length).toBe(before);
  });
});

describe('authorization', () => {
  const auth = () => last()?.headers.authorization;
  it('sends bearer, basic, a credential slot or URL userinfo as one Authorization header', async () => {
    await call(get, { url: `${server.url}/echo`, bearer: 'tok-1' });
    expect(auth()).toBe('Bearer tok-1');
    await call(get, { url: `${server.url}/echo`, basic: 'alice:s3:cret' });
    expect(auth()).toBe(`Basic ${Buffer.from('alice:s3:cret').toString('base64')}`);
    await call(
      get,
      { url: `${server.url}/echo` },
      { credentials: { basic: { id: 'web', kind: 'http-basic', values: { username: 'bob', password: 'pw' } } } },
    );
    expect(auth()).toBe(`Basic ${Buffer.from('bob:pw').toString('base64')}`);
    const out = await call(get, { url: server.url.replace('://', '://carol:p%40ss@') + '/echo' });
    expect(auth()).toBe(`Basic ${Buffer.from('carol:p@ss').toString('base64')}`);
    expect(out.url).not.toContain('carol');
  });

  it('refuses two sources, and inline secrets over MCP, before sending', async () => {
    const before = server.requests.length;
    const slot = { credentials: { basic: { id: 'web', kind: 'http-basic', values: { username: 'u', password: 'planted-pw' } } } };
    const conflicts: [Record<string, unknown>, Partial<Ctx>][] = [
      [{ bearer: 't', basic: 'u:p' }, {}],
      [{ bearer: 't' }, slot],
      [{ headers: ['Authorization: Bearer x'] }, slot],
      [{ basic: 'u:p', headers: ['authorization: x'] }, {}],
    ];
    for (const [args, ctx] of conflicts) {
      const error = await failure(get, { url: `${server.url}/echo`, ...args }, ctx);
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toContain('only one credential source');
      expect(JSON.stringify(error)).not.toContain('planted-pw');
    }
    const userinfo = await failure(get, { url: server.url.replace('://', '://u:p@') + '/echo' }, slot);
    expect(userinfo.message).toContain('URL userinfo');
    for (const args of [{ bearer: 'planted-token' }, { basic: 'u:planted-token' }, { headers: ['Authorization: Bearer planted-token'] }]) {
      const error = await failure(get, { url: `${server.url}/echo`, ...args }, { transport: 'mcp' });
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(`${error.message} ${error.detail} ${error.hint}`).not.toContain('planted-token');
      expect(error.hint).toContain('credentials');
    }
    expect(server.requests.length).toBe(before);
    // The slot is the MCP way.
    await call(get, { url: `${server.url}/echo` }, { transport: 'mcp', ...slot });
    expect(auth()).toBe(`Basic ${Buffer.from('u:planted-pw').toString('base64')}`);
  });
});

describe('expectations', () => {
  it('passes status, header, body and JSON checks and counts them', async () => {
    const out = await call(get, {
      url: `${server.url}/echo?x=1`,
      expect_status: '2xx',
      expect_headers: ['X-Request-Id: rid-42'],
      expect_body_contains: ['"path":"/echo"'],
      expect_json: [
        'method:eq:GET',
        'query.x.0:eq:1',
        'query.x:contains:1',
        'headers:contains:host',
        'nothing:exists:false',
        'path:match:^/ec',
      ],
    });
    expect(out.assertions).toEqual({ total: 9, passed: 9, failed: 0, failures: [] });
  });

  it('fails with HTTP_ASSERTION_FAILED naming every failed check', async () => {
    const error = await failure(get, {
      url: `${server.url}/status/404`,
      expect_status: '200-299',
      expect_body_contains: ['found'],
      expect_json: ['a:exists'],
    });
    expect(error.code).toBe('HTTP_ASSERTION_FAILED');
    expect(error.detail).toContain('status: expected 200-299, got 404');
    expect(error.detail).toContain('does not contain "found"');
    expect(error.detail).toContain('the body is not JSON');
    expect((await failure(get, { url: `${server.url}/status/201`, expect_status: 200 })).code).toBe('HTTP_ASSERTION_FAILED');
    await expect(call(get, { url: `${server.url}/status/201`, expect_status: 201 })).resolves.toMatchObject({ status: 201 });
  });

  it('never quotes a secret response header in a failure', async () => {
    const error = await failure(get, { url: `${server.url}/cookie`, expect_headers: ['Set-Cookie: other'] });
    expect(error.detail).toContain("header 'Set-Cookie': value differs");
    expect(error.detail).not.toContain('planted-cookie-value');
  });
});

describe('limits, retries and failures', () => {
  it('cuts an endless body at max_response_bytes; body checks then fail explicitly', async () => {
    const out = await call(get, { url: `${server.url}/endless`, max_response_bytes: 100_000 });
    expect(out).toMatchObject({ status: 200, body_truncated: true, truncated: true });
    expect(out.body.length).toBe(100_000);
    const error = await failure(get, {
      url: `${server.url}/endless`,
      max_response_bytes: 1000,
      expect_status: 200,
      expect_body_contains: ['x'],
    });
    expect(error.detail).toContain('truncated');
    expect(error.detail).not.toContain('status:');
  });

  it('times out a slow server with a retryable HTTP_REQUEST_FAILED and closes the connection', async () => {
    const aborted = server.aborted();
    const error = await failure(get, { url: `${server.url}/slow/60000`, timeout_secs: 1 });
    expect(error).toMatchObject({ code: 'HTTP_REQUEST_FAILED', retryable: true });
    expect(error.message).toContain('timed out after 1000 ms');
    await expect.poll(() => server.aborted()).toBe(aborted + 1);
  });

  it('retries 5xx and transport errors, never 4xx', async () => {
    const out = await call(get, { url: `${server.url}/flaky/2`, retry: 3 });
    expect(out.status).toBe(200);
    expect(server.requests.filter((r) => r.path === '/flaky/2')).toHaveLength(3);
    const gaveUp = await call(get, { url: `${server.url}/flaky/9`, retry: 2 });
    expect(gaveUp).toMatchObject({ status: 503, ok: false });
    expect(server.requests.filter((r) => r.path === '/flaky/9')).toHaveLength(3);
    await call(get, { url: `${server.url}/status/404`, retry: 3 }).catch(() => undefined);
    const before = server.requests.filter((r) => r.path === '/status/429').length;
    await call(get, { url: `${server.url}/status/429`, retry: 3 });
    expect(server.requests.filter((r) => r.path === '/status/429').length).toBe(before + 1);
    const port = await closedPort();
    const refused = await failure(get, { url: `http://127.0.0.1:${port}/`, retry: 1 });
    expect(refused).toMatchObject({ code: 'HTTP_REQUEST_FAILED', retryable: true });
    expect(refused.detail).toContain('ECONNREFUSED');
  });

  it('starts no attempt and no delay past the deadline', async () => {
    // Ten retries 300 ms apart cannot fit in a 1 s call: the loop stops early and returns the 503.
    const out = await call(get, { url: `${server.url}/flaky/100`, retry: 10, retry_delay_ms: 300 }, { deadline: Date.now() + 1000 });
    expect(out.status).toBe(503);
    const attempts = server.requests.filter((r) => r.path === '/flaky/100').length;
    expect(attempts).toBeGreaterThanOrEqual(1);
    expect(attempts).toBeLessThan(11);
    // A per-attempt timeout longer than the time left is cut to it.
    const error = await failure(get, { url: `${server.url}/slow/60000`, timeout_secs: 60 }, { deadline: Date.now() + 500 });
    expect(error.code).toBe('HTTP_REQUEST_FAILED');
    expect(error.message).toMatch(/timed out after \d+ ms/);
  });

  it('aborts the request when the call is cancelled', async () => {
    const ctx = testContext({ cwd: '/' });
    const aborted = server.aborted();
    const pending = get.run(withDefaults(get.inputSchema, { url: `${server.url}/slow/59000` }) as never, ctx);
    await expect.poll(() => server.requests.some((r) => r.path === '/slow/59000')).toBe(true);
    ctx.controller.abort(new AhError({ code: 'EXECUTION_CANCELLED', message: 'cancelled' }));
    await expect(pending).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
    await expect.poll(() => server.aborted()).toBeGreaterThan(aborted);
  });

  it('reports a body cut short as a retryable HTTP_RESPONSE_READ_FAILED, after retrying it', async () => {
    const before = server.requests.filter((r) => r.path === '/cut').length;
    const error = await failure(get, { url: `${server.url}/cut`, retry: 1 });
    expect(error).toMatchObject({ code: 'HTTP_RESPONSE_READ_FAILED', retryable: true });
    expect(server.requests.filter((r) => r.path === '/cut').length).toBe(before + 2);
  });

  it('reports a header the client cannot send as HTTP_CLIENT_BUILD_FAILED, before sending', async () => {
    const before = server.requests.length;
    const error = await failure(get, { url: `${server.url}/echo`, headers: ['X-Name: caf\u00e9 \u2603 planted'] });
    expect(error).toMatchObject({ code: 'HTTP_CLIENT_BUILD_FAILED', message: "header 'X-Name' cannot be sent", retryable: false });
    expect(error.detail).not.toContain('planted');
    expect(server.requests.length).toBe(before);
  });

  it('follows a redirect chain and reports the final URL', async () => {
    const out = await call(get, { url: `${server.url}/redirect/3` });
    expect(out).toMatchObject({ status: 200, url: `${server.url}/echo?from=redirect` });
    expect(server.requests.slice(-4).map((r) => r.path)).toEqual(['/redirect/2', '/redirect/1', '/redirect/0', '/echo']);
  });

  it('refuses a self-signed certificate with a clear error and no bypass', async () => {
    const tls = await startSelfSignedTls();
    try {
      const error = await failure(get, { url: `${tls.url}/echo` });
      expect(error.code).toBe('HTTP_REQUEST_FAILED');
      expect(error.message).toContain('TLS certificate is not trusted');
      expect(error.detail).toMatch(/self[- ]signed/i);
      expect(error.hint).toContain('never skips certificate checks');
      expect(tls.requests).toHaveLength(0);
    } finally {
      await tls.close();
    }
  });
});

describe('replay', () => {
  it('sends what the curl command says; explicit options override it', async () => {
    await call(replay, { curl: `curl -X PUT -H 'X-A: 1' -H "X-B: two words" --data-raw '{"k":"v"}' '${server.url}/echo?z=9'` });
    expect(last()).toMatchObject({
      method: 'PUT',
      path: '/echo',
      query: { z: ['9'] },
      body: '{"k":"v"}',
      headers: { 'x-a': '1', 'x-b': 'two words' },
    });
    await call(replay, { curl: `curl ${server.url}/echo -d a=1 -d b=2`, headers: ['x-a: override'] });
    expect(last()).toMatchObject({ method: 'POST', body: 'a=1&b=2', headers: { 'x-a': 'override' } });
    await call(replay, { curl: `curl --json '{"j":1}' --url=${server.url}/echo` });
    expect(last()).toMatchObject({
      method: 'POST',
      body: '{"j":1}',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    await call(replay, { curl: `curl -G -d q=1 ${server.url}/echo`, body: 'explicit' }).catch((e: AhError) =>
      expect(e.code).toBe('INVALID_ARGUMENT'),
    );
    await call(replay, { curl: `curl -G -d q=1 ${server.url}/echo` });
    expect(last()).toMatchObject({ method: 'GET', query: { q: ['1'] }, body: '' });
    await call(replay, { curl: `curl -I ${server.url}/echo` });
    expect(last()?.method).toBe('HEAD');
    await call(replay, { curl: `curl -u ann:pw ${server.url}/echo` });
    expect(last()?.headers.authorization).toBe(`Basic ${Buffer.from('ann:pw').toString('base64')}`);
    await call(replay, { curl: `curl -XDELETE ${server.url}/echo`, expect_status: 200 });
    expect(last()?.method).toBe('DELETE');
  });

  it('refuses unsupported options, curl userinfo with a credential, and -u over MCP', async () => {
    for (const curl of ['curl -k https://x/', 'curl -L http://x/', 'curl --compressed http://x/', 'curl -d @file http://x/']) {
      const error = await failure(replay, { curl });
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'unsupported curl option in replay' });
    }
    const slot = { credentials: { basic: { id: 'web', kind: 'http-basic', values: { username: 'u', password: 'p' } } } };
    expect((await failure(replay, { curl: `curl -u a:b ${server.url}/echo` }, slot)).message).toContain('only one credential source');
    expect((await failure(replay, { curl: `curl -u a:planted ${server.url}/echo` }, { transport: 'mcp' })).code).toBe('INVALID_ARGUMENT');
  });
});
