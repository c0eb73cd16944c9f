/**
 * Assert specs against a real loopback server: the README's example, extraction published only
 * by passing cases, extracted values absent from every report, fail-fast, JSON specs, bad specs,
 * and JUnit XML checked with a real XML parser.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AhError } from '../../../errors.js';
import { type Loopback, startLoopback } from '../../../../test/fixtures/http/loopback.js';
import { testContext, withDefaults } from '../../../../test/helpers/context.js';
import { tempDir } from '../../../../test/helpers/tmp.js';
import { type AssertInput, executeSpec, textReport } from './assert-shared.js';
import { assert } from './assert.js';
import { junitXml } from './junit.js';
import { run } from './run.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const EXAMPLE = join(ROOT, 'test/fixtures/http/example-spec.yaml');

let server: Loopback;
beforeAll(async () => {
  server = await startLoopback();
});
afterAll(async () => {
  await server.close();
});

const args = (extra: Record<string, unknown>) => withDefaults(assert.inputSchema, extra) as AssertInput;

function writeSpec(text: string, name = 'spec.yaml'): { dir: string; path: string } {
  const dir = tempDir();
  writeFileSync(join(dir, name), text);
  return { dir, path: name };
}

describe('the README example', () => {
  it('is in the README verbatim', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(readFileSync(EXAMPLE, 'utf8').trimEnd());
  });

  it('passes against the loopback server, through assert and its alias run', async () => {
    for (const d of [assert, run]) {
      const out = await d.run(args({ spec_path: EXAMPLE, vars: [`base=${server.url}`] }), testContext({ cwd: ROOT }));
      expect(out).toMatchObject({ command: 'http.assert', summary: { total: 2, passed: 2, failed: 0 } });
      expect(out.cases.map((c) => [c.name, c.passed, c.status])).toEqual([
        ['create a user', true, 200],
        ['read it back', true, 200],
      ]);
    }
    const create = server.requests.find((r) => r.method === 'POST' && r.path === '/echo/users');
    expect(create).toMatchObject({
      body: '{"name":"alice","roles":["admin"]}',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
    });
    // The second case used the three extracted values.
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET', path: '/echo/users', query: { trace: ['rid-42'], seen: ['POST'] } });
  });
});

describe('extraction', () => {
  const SECRET = `planted-extract-${Date.now()}`;
  const spec = (base: string) => `
version: 1
defaults: { base_url: "${base}" }
cases:
  - name: make a token
    request: { method: POST, path: /echo, body: "${SECRET}" }
    expect: { status: 200 }
    extract: { token: { json: body } }
  - name: failing case extracts nothing
    request: { path: /status/500 }
    expect: { status: 200 }
    extract: { lost: { header: content-type } }
  - name: uses a value that was never published
    request: { path: "/echo/{{lost}}" }
  - name: fails with the token in its path, query and expectations
    request: { path: "/status/404/{{token}}", query: { t: "{{token}}" } }
    expect:
      status: 200
      headers: { x-token: "{{token}}" }
      body_contains: ["{{token}}"]
      json: [{ path: a, eq: "{{token}}" }]
  - name: transport error with the token in the URL
    request: { url: "http://127.0.0.1:9/{{token}}", timeout_secs: 2 }
`;

  it('publishes values only from passing cases, and never reports one', async () => {
    const { dir, path } = writeSpec(spec(server.url));
    const out = await executeSpec(args({ spec_path: path }), testContext({ cwd: dir }));
    expect(out.cases.map((c) => c.passed)).toEqual([true, false, false, false, false]);
    expect(out.cases[2]?.failures).toEqual(["unknown variable 'lost'"]);
    expect(out.cases[2]?.status).toBeNull();
    expect(server.requests.some((r) => r.path === `/status/404/${SECRET}` && r.query.t?.[0] === SECRET)).toBe(true);
    expect(out.cases[3]?.failures.length).toBe(4);
    const reports = [JSON.stringify(out), textReport(out), junitXml(out)];
    for (const report of reports) expect(report).not.toContain(SECRET);
    const error = await assert.run(args({ spec_path: path }), testContext({ cwd: dir })).catch((e: AhError) => e);
    expect(error).toMatchObject({ code: 'HTTP_ASSERTION_FAILED', message: `4 of 5 cases failed in ${path}` });
    expect(JSON.stringify({ m: (error as AhError).message, c: (error as AhError).detail })).not.toContain(SECRET);
  });

  it('stops at the first failure with fail_fast', async () => {
    const { dir, path } = writeSpec(spec(server.url));
    const out = await executeSpec(args({ spec_path: path, fail_fast: true }), testContext({ cwd: dir }));
    expect(out.cases.map((c) => c.name)).toEqual(['make a token', 'failing case extracts nothing']);
    expect(out.summary).toMatchObject({ total: 2, passed: 1, failed: 1 });
  });

  it('fails an extraction that finds nothing, and regex groups pick their text', async () => {
    const { dir, path } = writeSpec(`
version: 1
vars: { base: "${server.url}" }
cases:
  - name: missing things
    request: { url: "{{base}}/echo" }
    extract:
      a: { json: no.such.path }
      b: { header: x-none }
      c: { text: { regex: "zzz(q)" } }
      d: { text: { regex: "\\"method\\":\\"GET\\"", group: 0 } }
`);
    const out = await executeSpec(args({ spec_path: path }), testContext({ cwd: dir }));
    expect(out.cases[0]?.failures).toEqual([
      "extract 'a': json 'no.such.path' missing",
      "extract 'b': header 'x-none' missing",
      "extract 'c': the pattern did not match",
    ]);
  });
});

describe('spec files', () => {
  it('reads JSON specs, and --var overrides spec vars', async () => {
    const { dir, path } = writeSpec(
      JSON.stringify({
        version: 1,
        vars: { base: 'http://127.0.0.1:9' },
        cases: [{ name: 'j', request: { url: '{{base}}/echo' }, expect: { status: 200 } }],
      }),
      's.json',
    );
    const out = await executeSpec(args({ spec_path: path, vars: [`base=${server.url}`] }), testContext({ cwd: dir }));
    expect(out.cases[0]).toMatchObject({ passed: true, status: 200 });
  });

  it('refuses bad specs with INVALID_ARGUMENT before any request', async () => {
    const before = server.requests.length;
    for (const [text, name, fragment] of [
      ['version: 2\ncases: []', 'a.yaml', 'version'],
      ['version: 1\ncases:\n  - name: x\n    request: {}\n    bogus: 1', 'b.yaml', 'bogus'],
      ['version: 1\ncases: [\n', 'c.yaml', 'not valid YAML'],
      ['{"version":1,', 'd.json', 'not valid JSON'],
    ] as const) {
      const { dir, path } = writeSpec(text, name);
      const error = await executeSpec(args({ spec_path: path }), testContext({ cwd: dir })).catch((e: AhError) => e);
      expect(error).toBeInstanceOf(AhError);
      expect((error as AhError).code).toBe('INVALID_ARGUMENT');
      expect(`${(error as AhError).message} ${(error as AhError).detail}`).toContain(fragment);
    }
    const missing = await executeSpec(args({ spec_path: 'nope.yaml' }), testContext({ cwd: tempDir() })).catch((e: AhError) => e);
    expect((missing as AhError).code).toBe('FILE_NOT_FOUND');
    expect(server.requests.length).toBe(before);
  });
});

describe('JUnit report', () => {
  it('is well-formed XML a JUnit reader understands: one testcase per case, failures marked', async () => {
    const { dir, path } = writeSpec(`
version: 1
defaults: { base_url: "${server.url}" }
cases:
  - name: "ok <&> \\"quoted\\""
    request: { path: /echo }
    expect: { status: 200 }
  - name: broken
    request: { path: /status/503 }
    expect: { status: 2xx, body_contains: ["<nope>"] }
`);
    const out = await executeSpec(args({ spec_path: path, report: 'junit' }), testContext({ cwd: dir }));
    const xml = junitXml(out);
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' }).parse(xml);
    const suite = doc.testsuites.testsuite;
    expect(doc.testsuites).toMatchObject({ tests: '2', failures: '1' });
    expect(suite).toMatchObject({ name: path, tests: '2', failures: '1', errors: '0' });
    expect(suite.testcase.map((t: { name: string }) => t.name)).toEqual(['ok <&> "quoted"', 'broken']);
    expect(suite.testcase[0].failure).toBeUndefined();
    expect(suite.testcase[1].failure).toMatchObject({ type: 'HTTP_ASSERTION_FAILED', message: 'status: expected 2xx, got 503' });
    expect(suite.testcase[1].failure['#text']).toContain('body: does not contain an expected text');
    expect(Number(suite.testcase[0].time)).toBeGreaterThanOrEqual(0);
  });
});
