/**
 * The http plugin end to end: the built `ah` from the CLI, over MCP stdio and over MCP HTTP,
 * against a real loopback server. Covers the credential slot with a planted secret (found nowhere
 * afterwards: not in stdout, stderr, MCP traffic or logs), the HTTP cwd rule, specs with JUnit
 * reports, and the plugin being disabled like any domain.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keySourceFromHex } from '../../src/secrets/keys.js';
import { createVault } from '../../src/secrets/vault.js';
import { type Loopback, startLoopback } from '../fixtures/http/loopback.js';
import { type AhEnv, isolatedEnv, runAh } from '../helpers/cli.js';
import { type HttpServer, startHttpServer } from '../helpers/http.js';
import { connectStdio, type StdioServer } from '../helpers/mcp.js';
import { expectNowhere } from '../helpers/secrets.js';
import { suiteTempDir } from '../helpers/tmp.js';

const KEY = randomBytes(32).toString('hex');
const PASSWORD = `pw_planted_${randomBytes(12).toString('hex')}`;
const BEARER = `tok_planted_${randomBytes(12).toString('hex')}`;
const EXAMPLE = resolve(import.meta.dirname, '../fixtures/http/example-spec.yaml');

interface Result {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: { type: string; text: string }[];
  _meta?: Record<string, Record<string, unknown>>;
}

let ah: AhEnv;
let web: Loopback;
let stdio: StdioServer;
let http: HttpServer;
let httpClient: Client;
let project: string;
const transcript: string[] = [];

beforeAll(async () => {
  ah = isolatedEnv({ AH_VAULT_MASTER_KEY: KEY }, { suite: true });
  const vault = createVault({ configDir: ah.configDir, key: keySourceFromHex(KEY) });
  await vault.init();
  await vault.add({ id: 'web', kind: 'http-basic', values: { username: 'alice', password: PASSWORD } });
  await vault.add({ id: 'gh', kind: 'github-token', values: { token: 'unused' } });
  web = await startLoopback();
  project = suiteTempDir('ah-http-project-');
  writeFileSync(join(project, 'body.json'), '{"from":"file"}');
  copyFileSync(EXAMPLE, join(project, 'api.yaml'));
  stdio = await connectStdio([], { env: ah.env });
  http = await startHttpServer({ env: ah.env });
  httpClient = new Client({ name: 'http-e2e', version: '1' });
  await httpClient.connect(new StreamableHTTPClientTransport(new URL(http.url)));
}, 60_000);

afterAll(async () => {
  await httpClient?.close();
  await http?.stop();
  await stdio?.close();
  await web?.close();
});

const basicOf = (user: string, pw: string) => `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`;
const last = () => web.requests[web.requests.length - 1];

async function cli(args: string[], cwd = project) {
  const run = await runAh(args, { env: ah.env, cwd });
  transcript.push(run.stdout, run.stderr);
  return run;
}

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  const result = (await client.callTool({ name, arguments: args })) as Result;
  transcript.push(JSON.stringify(result));
  return result;
}
const code = (r: Result) => r._meta?.['dev.aihelper/diagnostic']?.code;

describe('CLI', () => {
  it('sends a GET with headers and query, prints the body, and --json is the MCP result', async () => {
    const run = await cli([
      'http',
      'get',
      `${web.url}/echo`,
      '--header',
      'X-A: 1',
      '--query',
      'q=v',
      '--expect-status',
      '2xx',
      '--expect-json',
      'method:eq:GET',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`GET ${web.url}/echo?q=v -> 200`);
    expect(last()).toMatchObject({ method: 'GET', path: '/echo', query: { q: ['v'] }, headers: { 'x-a': '1' } });
    const json = await cli(['--json', 'http', 'get', `${web.url}/status/201`]);
    const mcp = await tool(stdio.client, 'ah.http.get', { url: `${web.url}/status/201` });
    const strip = (o: Record<string, unknown>) => ({ ...o, duration_ms: 0, headers: { ...(o.headers as object), date: '' } });
    expect(strip(json.json())).toEqual(strip(mcp.structuredContent as Record<string, unknown>));
  });

  it('posts JSON inline and from a file, and request takes any method', async () => {
    expect((await cli(['http', 'post', `${web.url}/echo`, '--json', '{"a":1}'])).code).toBe(0);
    expect(last()).toMatchObject({ method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect((await cli(['http', 'put', `${web.url}/echo`, '--json-file', 'body.json'])).code).toBe(0);
    expect(last()).toMatchObject({ method: 'PUT', body: '{"from":"file"}' });
    expect((await cli(['http', 'request', '--method', 'OPTIONS', `${web.url}/echo`])).code).toBe(0);
    expect(last()?.method).toBe('OPTIONS');
    expect((await cli(['http', 'delete', `${web.url}/echo`])).code).toBe(0);
    expect(last()?.method).toBe('DELETE');
    expect((await cli(['http', 'patch', `${web.url}/echo`, '--body', 'b'])).code).toBe(0);
    expect(last()).toMatchObject({ method: 'PATCH', body: 'b' });
  });

  it('exits non-zero with HTTP_ASSERTION_FAILED when an expectation fails', async () => {
    const run = await cli(['--json', 'http', 'get', `${web.url}/status/500`, '--expect-status', '200']);
    expect(run.code).not.toBe(0);
    expect(run.errorJson()).toMatchObject({ code: 'HTTP_ASSERTION_FAILED', domain: 'http' });
  });

  it('sends a vault credential and an inline bearer, and never prints or logs either', async () => {
    // /status answers without echoing the request: anything secret in the output would be ours.
    const run = await cli(['http', 'get', `${web.url}/status/200`, '--credential', 'basic=web']);
    expect(run.code, run.stderr).toBe(0);
    expect(last()?.headers.authorization).toBe(basicOf('alice', PASSWORD));
    expect(run.stdout).not.toContain(PASSWORD);
    const bearer = await cli(['http', 'get', `${web.url}/status/204`, '--bearer', BEARER]);
    expect(bearer.code, bearer.stderr).toBe(0);
    expect(last()?.headers.authorization).toBe(`Bearer ${BEARER}`);
    const header = await cli(['http', 'get', `${web.url}/status/204`, '--header', `Authorization: Bearer ${BEARER}`]);
    expect(header.code, header.stderr).toBe(0);
    const both = await cli(['--json', 'http', 'get', `${web.url}/echo`, '--credential', 'basic=web', '--bearer', BEARER]);
    expect(both.errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT' });
    const kind = await cli(['--json', 'http', 'get', `${web.url}/echo`, '--credential', 'basic=gh']);
    expect(kind.errorJson()).toMatchObject({ code: 'SECRET_KIND_MISMATCH' });
    const noSlot = await cli(['--json', 'http', 'put', `${web.url}/echo`, '--credential', 'basic=web']);
    expect(noSlot.errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('replays a curl command and refuses what it does not support', async () => {
    const ok = await cli(['http', 'replay', '--curl', `curl -X PUT -H 'X-C: 3' -d 'x=1' ${web.url}/echo`, '--header', 'X-C: 4']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(last()).toMatchObject({ method: 'PUT', body: 'x=1', headers: { 'x-c': '4' } });
    const bad = await cli(['--json', 'http', 'replay', '--curl', `curl -k ${web.url}/echo`]);
    expect(bad.errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'unsupported curl option in replay' });
  });

  it('runs a spec with text, JSON and JUnit reports; run is the same command', async () => {
    const text = await cli(['http', 'assert', 'api.yaml', '--var', `base=${web.url}`]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('PASS  create a user');
    expect(text.stdout).toContain('2 cases: 2 passed, 0 failed');
    const json = await cli(['http', 'run', 'api.yaml', '--var', `base=${web.url}`, '--report', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ command: 'http.assert', summary: { total: 2, passed: 2 } });
    const junit = await cli(['http', 'assert', 'api.yaml', '--var', `base=${web.url}`, '--report', 'junit']);
    expect(XMLValidator.validate(junit.stdout)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junit.stdout);
    expect(doc.testsuites.testsuite).toMatchObject({ tests: '2', failures: '0' });
    const failed = await cli(['--json', 'http', 'assert', 'api.yaml', '--var', 'base=http://127.0.0.1:9']);
    expect(failed.code).not.toBe(0);
    expect(failed.errorJson()).toMatchObject({ code: 'HTTP_ASSERTION_FAILED', message: '2 of 2 cases failed in api.yaml' });
    // A failed run still hands its JUnit report to the CI system on stdout, the diagnostic on stderr.
    const failedJunit = await cli(['http', 'assert', 'api.yaml', '--var', 'base=http://127.0.0.1:9', '--report', 'junit']);
    expect(failedJunit.code).toBe(1);
    expect(XMLValidator.validate(failedJunit.stdout)).toBe(true);
    const failedDoc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(failedJunit.stdout);
    expect(failedDoc.testsuites.testsuite).toMatchObject({ tests: '2', failures: '2' });
    expect(failedJunit.stderr).toContain('HTTP_ASSERTION_FAILED');
  });

  it('can be disabled and enabled like any domain', async () => {
    expect((await cli(['plugins', 'disable', 'http'])).code).toBe(0);
    const off = await cli(['--json', 'http', 'get', `${web.url}/echo`]);
    expect(off.errorJson()).toMatchObject({ code: 'DOMAIN_DISABLED' });
    expect((await cli(['plugins', 'enable', 'http'])).code).toBe(0);
    expect((await cli(['http', 'get', `${web.url}/echo`])).code).toBe(0);
  });
});

describe('MCP over stdio', () => {
  it('publishes the nine tools with their risk, annotations and credential slot', async () => {
    const { tools } = await stdio.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['request', 'get', 'post', 'put', 'patch', 'delete', 'replay', 'assert', 'run'])
      expect(byName.has(`ah.http.${name}`), name).toBe(true);
    const get = byName.get('ah.http.get');
    expect(get?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    expect(get?._meta?.['dev.aihelper/risk']).toMatchObject({ level: 'medium' });
    expect(byName.get('ah.http.post')?._meta?.['dev.aihelper/risk']).toMatchObject({ level: 'high' });
    for (const name of ['request', 'get', 'post', 'replay'])
      expect(byName.get(`ah.http.${name}`)?.inputSchema.properties?.credentials, name).toBeDefined();
    for (const name of ['put', 'patch', 'delete', 'assert', 'run'])
      expect(byName.get(`ah.http.${name}`)?.inputSchema.properties?.credentials, name).toBeUndefined();
    expect(get?.description).toContain('http-basic');
    transcript.push(JSON.stringify(tools));
  });

  it('sends the credential slot value and returns nothing of it', async () => {
    const result = await tool(stdio.client, 'ah.http.get', { url: `${web.url}/status/200`, credentials: { basic: 'web' } });
    expect(result.isError).toBeFalsy();
    expect(last()?.headers.authorization).toBe(basicOf('alice', PASSWORD));
  });

  it('rejects inline secrets with INVALID_ARGUMENT before sending', async () => {
    const before = web.requests.length;
    for (const args of [{ bearer: BEARER }, { basic: `a:${BEARER}` }, { headers: [`Authorization: Bearer ${BEARER}`] }]) {
      const result = await tool(stdio.client, 'ah.http.get', { url: `${web.url}/echo`, ...args });
      expect(result.isError).toBe(true);
      expect(code(result)).toBe('INVALID_ARGUMENT');
    }
    const curl = await tool(stdio.client, 'ah.http.replay', { curl: `curl -u a:${BEARER} ${web.url}/echo` });
    expect(code(curl)).toBe('INVALID_ARGUMENT');
    expect(web.requests.length).toBe(before);
  });

  it('runs a spec relative to context.cwd and reports failures as HTTP_ASSERTION_FAILED', async () => {
    const ok = await tool(stdio.client, 'ah.http.assert', { spec_path: 'api.yaml', vars: [`base=${web.url}`], context: { cwd: project } });
    expect(ok.structuredContent).toMatchObject({ command: 'http.assert', summary: { passed: 2, failed: 0 } });
    const bad = await tool(stdio.client, 'ah.http.run', {
      spec_path: 'api.yaml',
      vars: [`base=${web.url}/status/404#`],
      context: { cwd: project },
    });
    expect(code(bad)).toBe('HTTP_ASSERTION_FAILED');
    expect(bad.content?.[0]?.text).toMatch(/^HTTP_ASSERTION_FAILED: /);
  });
});

describe('MCP over HTTP', () => {
  it('serves one-off requests without a cwd (stateless)', async () => {
    const result = await tool(httpClient, 'ah.http.get', { url: `${web.url}/status/200`, credentials: { basic: 'web' } });
    expect(result.structuredContent).toMatchObject({ status: 200, ok: true });
    expect(last()?.headers.authorization).toBe(basicOf('alice', PASSWORD));
  });

  it('needs an absolute cwd for a relative body file and for specs', async () => {
    const noCwd = await tool(httpClient, 'ah.http.post', { url: `${web.url}/echo`, json_file: 'body.json' });
    expect(code(noCwd)).toBe('INVALID_CONTEXT');
    const withCwd = await tool(httpClient, 'ah.http.post', { url: `${web.url}/echo`, json_file: 'body.json', context: { cwd: project } });
    expect(withCwd.isError).toBeFalsy();
    expect(last()?.body).toBe('{"from":"file"}');
    const absolute = await tool(httpClient, 'ah.http.post', { url: `${web.url}/echo`, body_file: join(project, 'body.json') });
    expect(absolute.isError).toBeFalsy();
    const spec = await tool(httpClient, 'ah.http.assert', { spec_path: join(project, 'api.yaml'), vars: [`base=${web.url}`] });
    expect(code(spec)).toBe('INVALID_CONTEXT');
    const specOk = await tool(httpClient, 'ah.http.assert', {
      spec_path: 'api.yaml',
      vars: [`base=${web.url}`],
      context: { cwd: project },
    });
    expect(specOk.structuredContent).toMatchObject({ summary: { passed: 2 } });
  });
});

describe('secrets', () => {
  it('never reach stdout, stderr, MCP traffic or the logs', async () => {
    // A response that sets a cookie, over both surfaces: its value is in the result, never in a log.
    expect((await cli(['http', 'get', `${web.url}/cookie`])).stdout).toContain('cookies');
    expect((await tool(stdio.client, 'ah.http.get', { url: `${web.url}/cookie` })).structuredContent?.headers).toMatchObject({
      'set-cookie': 'session=planted-cookie-value; HttpOnly, theme=dark',
    });
    const dir = join(ah.configDir, 'logs');
    const logs = readdirSync(dir)
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .join('\n');
    expect(logs).toContain('http.get');
    expect(logs).not.toContain('planted-cookie-value');
    expectNowhere(
      { transcript: transcript.join('\n'), logs, 'stdio server stderr': stdio.stderr(), 'http server stderr': http.stderr() },
      { password: PASSWORD, 'password in base64': Buffer.from(`alice:${PASSWORD}`).toString('base64'), bearer: BEARER },
    );
  });
});
