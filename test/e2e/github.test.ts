/**
 * The github plugin against a loopback API that answers like GitHub's REST API: the full outbound
 * request of every command, pagination, the token order and host binding, rate limits, log
 * archives behind a redirect to a second host, and waiting for a run.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keySourceFromHex } from '../../src/secrets/keys.js';
import { createVault } from '../../src/secrets/vault.js';
import { type AhEnv, isolatedEnv, runAh } from '../helpers/cli.js';
import { type FakeApi, fixture, startFakeApi } from '../helpers/fake-api.js';
import { connectStdio } from '../helpers/mcp.js';
import { tempDir } from '../helpers/tmp.js';

const ENV_TOKEN = `ghp_env_${randomBytes(8).toString('hex')}`;
let api: FakeApi;
let storage: FakeApi;

/** A clean env: the machine's own GitHub variables never leak into a test. */
function env(extra: NodeJS.ProcessEnv = {}): AhEnv {
  const e = isolatedEnv({ GITHUB_TOKEN: undefined, GH_TOKEN: undefined, GIT_CONFIG_GLOBAL: undefined, ...extra });
  return e;
}

const gh = (args: string[], e: AhEnv = env({ GITHUB_TOKEN: ENV_TOKEN }), cwd?: string) =>
  runAh(['--json', 'github', ...args, '--api-url', api.url, ...(args.includes('--repo') ? [] : ['--repo', 'octocat/Hello-World'])], {
    env: e.env,
    ...(cwd ? { cwd } : {}),
  });

const last = () => api.requests.at(-1) as FakeApi['requests'][number];

beforeAll(async () => {
  api = await startFakeApi('127.0.0.1', '/api/v3');
  // A second host: the storage a log download is redirected to (it must never see a token).
  storage = await startFakeApi('127.0.0.2');
  api.route('GET', '/repos/octocat/Hello-World', { json: fixture('github', 'repo') });
});

afterAll(async () => {
  await api?.close();
  await storage?.close();
});

describe('github reads', () => {
  it('repo: sends the env token as a bearer to the API and reports the repository', async () => {
    const r = await gh(['repo']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ command: 'github.repo', repository: 'octocat/Hello-World', default_branch: 'master', private: false });
    expect(last()).toMatchObject({ method: 'GET', path: '/repos/octocat/Hello-World' });
    expect(last().headers.authorization).toBe(`Bearer ${ENV_TOKEN}`);
  });

  it('issues: filters as query, drops pull requests, pages by Link and sets truncated', async () => {
    const issue = fixture('github', 'issue');
    const pull = fixture('github', 'pull-as-issue');
    api.route('GET', '/repos/octocat/Hello-World/issues', (req) => {
      const page = Number(req.query.page ?? '1');
      const items =
        page === 1
          ? [pull, { ...issue, number: 1 }, { ...issue, number: 2 }]
          : [
              { ...issue, number: 3 },
              { ...issue, number: 4 },
            ];
      const next = `${api.url}/repos/octocat/Hello-World/issues?page=${page + 1}&per_page=${req.query.per_page}`;
      const headers: Record<string, string> = page < 2 ? { link: `<${next}>; rel="next"` } : {};
      return { json: items, headers };
    });
    const r = await gh(['issues', '--state', 'all', '--labels', 'bug', '--labels', 'ui', '--author', 'octocat', '--limit', '3']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json<{ issues: { number: number }[]; truncated: boolean }>();
    expect(out.issues.map((i) => i.number)).toEqual([1, 2, 3]);
    expect(out.truncated).toBe(true);
    const first = api.requests.find((q) => q.path === '/repos/octocat/Hello-World/issues' && q.query.page === undefined);
    expect(first?.query).toMatchObject({
      state: 'all',
      labels: 'bug,ui',
      creator: 'octocat',
      sort: 'created',
      direction: 'desc',
      per_page: '4',
    });
  });

  it('issues --search uses issue search scoped to the repository', async () => {
    api.route('GET', '/search/issues', { json: { total_count: 1, incomplete_results: false, items: [fixture('github', 'issue')] } });
    const r = await gh(['issues', '--search', 'crash', '--labels', 'bug']);
    expect(r.code, r.stderr).toBe(0);
    expect(last().query.q).toBe('crash repo:octocat/Hello-World is:issue state:open label:"bug"');
    expect(r.json<{ issues: unknown[] }>().issues).toHaveLength(1);
  });

  it('issue view, comments, release get/assets, workflows, runs, run get/jobs/artifacts', async () => {
    api.route('GET', '/repos/octocat/Hello-World/issues/1347', { json: fixture('github', 'issue') });
    api.route('GET', '/repos/octocat/Hello-World/issues/1347/comments', { json: [fixture('github', 'comment')] });
    api.route('GET', '/repos/octocat/Hello-World/releases/tags/v1.0.0', { json: fixture('github', 'release') });
    api.route('GET', '/repos/octocat/Hello-World/releases/1/assets', { json: fixture('github', 'release').assets });
    api.route('GET', '/repos/octocat/Hello-World/actions/workflows', { json: fixture('github', 'workflows') });
    api.route('GET', '/repos/octocat/Hello-World/actions/workflows/ci.yml/runs', {
      json: { total_count: 1, workflow_runs: [fixture('github', 'run')] },
    });
    api.route('GET', '/repos/octocat/Hello-World/actions/runs/30433642', { json: fixture('github', 'run') });
    api.route('GET', '/repos/octocat/Hello-World/actions/runs/30433642/jobs', { json: fixture('github', 'jobs') });
    api.route('GET', '/repos/octocat/Hello-World/actions/runs/30433642/artifacts', { json: fixture('github', 'artifacts') });
    const cases: [string[], Record<string, unknown>][] = [
      [['issue', 'view', '1347'], { issue: { number: 1347, labels: [{ name: 'bug' }], user: { login: 'octocat' }, pull_request: null } }],
      [['issue', 'comments', '1347'], { comments: [{ id: 1, body: 'Me too' }], truncated: false }],
      [['release', 'get', 'v1.0.0'], { release: { tag_name: 'v1.0.0', assets: [{ name: 'example.zip', size: 1024 }] } }],
      [['release', 'assets', 'v1.0.0'], { assets: [{ name: 'example.zip', download_count: 42 }] }],
      [['workflows'], { workflows: [{ id: 161335, path: '.github/workflows/blank.yaml' }, { id: 269289 }] }],
      [['runs', '--workflow', 'ci.yml', '--branch', 'main'], { runs: [{ id: 30433642, status: 'queued' }] }],
      [['run', 'get', '30433642'], { run: { id: 30433642, head_branch: 'master' } }],
      [['run', 'jobs', '30433642'], { jobs: [{ name: 'build', steps: [{ number: 1 }, { number: 2 }] }] }],
      [['run', 'artifacts', '30433642'], { artifacts: [{ id: 11, name: 'Rails', expired: false }] }],
    ];
    for (const [args, expected] of cases) {
      const r = await gh(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      const command = `github.${args.filter((a) => !a.startsWith('-') && !/^(v?\d|ci\.yml|main)/.test(a)).join('.')}`;
      expect(r.json()).toMatchObject({ command, ...expected });
    }
    expect(api.requests.find((q) => q.path.endsWith('/ci.yml/runs'))?.query).toMatchObject({ branch: 'main' });
  });
});

describe('github writes', () => {
  it('issue create/update/close/comment send exactly the fields given', async () => {
    const made = fixture('github', 'issue');
    api.route('POST', '/repos/octocat/Hello-World/issues', (req) => ({ status: 201, json: { ...made, ...(req.body as object) } }));
    api.route('PATCH', '/repos/octocat/Hello-World/issues/1347', (req) => ({ json: { ...made, ...(req.body as object) } }));
    api.route('POST', '/repos/octocat/Hello-World/issues/1347/comments', (req) => ({
      status: 201,
      json: { ...fixture('github', 'comment'), ...(req.body as object) },
    }));
    const dir = tempDir();
    writeFileSync(join(dir, 'body.md'), 'From a file\n');
    const e = env({ GITHUB_TOKEN: ENV_TOKEN });

    const created = await gh(
      ['issue', 'create', '--title', 'Crash', '--body-file', 'body.md', '--labels', 'bug', '--assignees', 'octocat'],
      e,
      dir,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(last()).toMatchObject({
      method: 'POST',
      body: { title: 'Crash', body: 'From a file\n', labels: ['bug'], assignees: ['octocat'] },
    });

    const updated = await gh(['issue', 'update', '1347', '--state', 'closed', '--title', 'Crash on start'], e);
    expect(updated.code, updated.stderr).toBe(0);
    expect(last()).toMatchObject({ method: 'PATCH', body: { state: 'closed', title: 'Crash on start' } });
    expect(Object.keys(last().body as object).sort()).toEqual(['state', 'title']);

    const nothing = await gh(['issue', 'update', '1347'], e);
    expect(nothing.code).toBe(1);
    expect(nothing.errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT' });

    const before = api.requests.length;
    const closed = await gh(['issue', 'close', '1347', '--comment', 'Fixed'], e);
    expect(closed.code, closed.stderr).toBe(0);
    expect(api.requests.slice(before).map((q) => [q.method, q.path, q.body])).toEqual([
      ['POST', '/repos/octocat/Hello-World/issues/1347/comments', { body: 'Fixed' }],
      ['PATCH', '/repos/octocat/Hello-World/issues/1347', { state: 'closed' }],
    ]);

    const both = await gh(['issue', 'comment', '1347', '--body', 'a', '--body-file', 'body.md'], e, dir);
    expect(both.errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT' });
    const comment = await gh(['issue', 'comment', '1347', '--body', 'Thanks'], e);
    expect(comment.json()).toMatchObject({ comment: { body: 'Thanks' } });
  });

  it('release create omits unset options; workflow run dispatches inputs', async () => {
    api.route('POST', '/repos/octocat/Hello-World/releases', (req) => ({
      status: 201,
      json: { ...fixture('github', 'release'), ...(req.body as object) },
    }));
    api.route('POST', '/repos/octocat/Hello-World/actions/workflows/ci.yml/dispatches', { status: 204 });
    const rel = await gh(['release', 'create', 'v2.0.0', '--notes', 'Notes']);
    expect(rel.code, rel.stderr).toBe(0);
    expect(last().body).toEqual({ tag_name: 'v2.0.0', body: 'Notes', draft: false, prerelease: false });
    const run = await gh(['workflow', 'run', 'ci.yml', '--ref', 'main', '--inputs', 'debug=true', '--inputs', 'level=a=b']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json()).toMatchObject({ dispatched: true });
    expect(last().body).toEqual({ ref: 'main', inputs: { debug: 'true', level: 'a=b' } });
  });
});

describe('github tokens', () => {
  it('order: --token, then GITHUB_TOKEN, then GH_TOKEN, then git credential fill; none → no header', async () => {
    const auth = async (e: AhEnv, extra: string[] = []) => {
      const r = await gh(['repo', ...extra], e);
      expect(r.code, r.stderr).toBe(0);
      return last().headers.authorization;
    };
    expect(await auth(env({ GITHUB_TOKEN: 'from-env', GH_TOKEN: 'from-gh' }), ['--token', 'from-cli'])).toBe('Bearer from-cli');
    expect(await auth(env({ GITHUB_TOKEN: 'from-env', GH_TOKEN: 'from-gh' }))).toBe('Bearer from-env');
    expect(await auth(env({ GH_TOKEN: 'from-gh' }))).toBe('Bearer from-gh');
    const helper = env();
    // git's own credential machinery, configured in the test's HOME like a user's helper would be.
    writeFileSync(join(helper.home, '.gitconfig'), '[credential]\n\thelper = "!f() { echo username=x; echo password=from-helper; }; f"\n');
    expect(await auth(helper)).toBeUndefined(); // http:// API: git's helpers are asked only for https hosts
    expect(await auth(env())).toBeUndefined();
  });

  it('keeps ambient tokens from a Link to another host, and explicit ones from cleartext hosts', async () => {
    storage.route('GET', '/page2', { json: [{ ...fixture('github', 'comment'), id: 2 }] });
    api.route('GET', '/repos/octocat/Hello-World/issues/9/comments', {
      json: [fixture('github', 'comment')],
      headers: { link: `<${storage.url}/page2>; rel="next"` },
    });
    const r = await gh(['issue', 'comments', '9']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<{ comments: { id: number }[] }>().comments.map((c) => c.id)).toEqual([1, 2]);
    expect(storage.requests.at(-1)?.headers.authorization).toBeUndefined();

    // .invalid never resolves: the refusal must come before any connection.
    const insecure = await runAh(['--json', 'github', 'repo', '--repo', 'o/r', '--api-url', 'http://ghe.invalid/api/v3', '--token', 'x'], {
      env: env().env,
    });
    expect(insecure.code).toBe(1);
    expect(insecure.errorJson()).toMatchObject({ code: 'GITHUB_INSECURE_TOKEN_TARGET' });
  });

  it('maps 401, a 403 rate limit and 404 to diagnostics an agent can act on', async () => {
    api.route('GET', '/repos/octocat/private', { status: 401, json: { message: 'Bad credentials' } });
    api.route('GET', '/repos/octocat/limited', {
      status: 403,
      json: { message: 'API rate limit exceeded for user ID 1.' },
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 120) },
    });
    const denied = await gh(['repo', '--repo', 'octocat/private']);
    expect(denied.errorJson()).toMatchObject({ code: 'GITHUB_AUTH_REQUIRED' });
    expect(denied.errorJson<{ message: string }>().message).toContain('github-token secret');
    const limited = await gh(['repo', '--repo', 'octocat/limited']);
    expect(limited.errorJson()).toMatchObject({ code: 'GITHUB_RATE_LIMITED' });
    expect(limited.errorJson<{ message: string }>().message).toMatch(/retry in 1[12]\d s/);
    const missing = await gh(['repo', '--repo', 'octocat/gone']);
    expect(missing.errorJson()).toMatchObject({ code: 'GITHUB_NOT_FOUND' });
  });

  it('detects the repository from the git remote (scp-like ssh form)', async () => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q', dir]);
    execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'git@github.com:octocat/Hello-World.git']);
    const r = await runAh(['--json', 'github', 'repo', '--api-url', api.url], { env: env({ GITHUB_TOKEN: ENV_TOKEN }).env, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ repository: 'octocat/Hello-World', remote_url: 'github.com:octocat/Hello-World.git' });
  });
});

describe('github run logs and waiting', () => {
  const archive = Buffer.from(
    zipSync({
      '1_build.txt': new TextEncoder().encode(
        '2024-01-01T00:00:00Z \u001b[32mok\u001b[0m\n2024-01-01T00:00:01Z npm WARN deprecated inflight@1.0.6\n',
      ),
      'build/2_Run tests.txt': new TextEncoder().encode('line one\n\u001b]0;title\u0007Error: boom\r\nwarning: flaky test\n'),
      // Incompressible filler, so the archive is larger than the smallest max_body_bytes.
      'build/3_Upload.txt': new TextEncoder().encode(`${randomBytes(3000).toString('base64')}\n`),
    }),
  );

  beforeAll(() => {
    storage.route('GET', '/logs.zip', { raw: archive, headers: { 'content-type': 'application/zip' } });
    api.route('GET', '/repos/octocat/Hello-World/actions/runs/77/logs', { status: 302, headers: { location: `${storage.url}/logs.zip` } });
    api.route('GET', '/repos/octocat/Hello-World/actions/runs/78/logs', { status: 404, json: { message: 'Not Found' } });
  });

  it('run logs: follows the redirect without the token, greps nested files, strips ANSI', async () => {
    const r = await gh(['run', 'logs', '77', '--grep', 'error']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({
      matches: [{ file: 'build/2_Run tests.txt', line: 2, text: 'Error: boom' }],
      match_count: 1,
      truncated: false,
    });
    expect(storage.requests.at(-1)?.headers.authorization).toBeUndefined();
    const warnings = await gh(['run', 'warnings', '77']);
    expect(warnings.json<{ matches: { file: string; line: number }[] }>().matches.map((m) => [m.file, m.line])).toEqual([
      ['1_build.txt', 2],
      ['build/2_Run tests.txt', 3],
    ]);
  });

  it('run logs: an expired or unfinished run and an oversized archive have their own codes', async () => {
    expect((await gh(['run', 'logs', '78'])).errorJson()).toMatchObject({ code: 'GITHUB_LOGS_UNAVAILABLE' });
    expect((await gh(['run', 'logs', '77', '--max-body-bytes', '1024'])).errorJson()).toMatchObject({ code: 'GITHUB_RESPONSE_TOO_LARGE' });
  });

  it('run wait: polls an unfinished run until it completes, with progress over MCP', async () => {
    let polls = 0;
    api.route('GET', '/repos/octocat/Hello-World/actions/runs/90', () => {
      polls += 1;
      const done = polls >= 3;
      return {
        json: { ...fixture('github', 'run'), id: 90, status: done ? 'completed' : 'in_progress', conclusion: done ? 'failure' : null },
      };
    });
    const e = env({ GITHUB_TOKEN: ENV_TOKEN });
    const s = await connectStdio([], { env: e.env });
    try {
      const progress: string[] = [];
      const result = (await s.client.callTool(
        { name: 'ah.github.run.wait', arguments: { repo: 'octocat/Hello-World', api_url: api.url, run_id: 90, interval_secs: 1 } },
        { onprogress: (p: { message?: string }) => progress.push(p.message ?? ''), timeout: 20_000 },
      )) as { structuredContent?: Record<string, unknown> };
      expect(result.structuredContent).toMatchObject({ completed: true, polls: 3, run: { status: 'completed', conclusion: 'failure' } });
      expect(progress.some((m) => m.includes('in_progress'))).toBe(true);
      polls = 0;
      const failed = (await s.client.callTool({
        name: 'ah.github.run.wait',
        arguments: { repo: 'octocat/Hello-World', api_url: api.url, run_id: 90, interval_secs: 1, fail_on_failure: true },
      })) as { _meta?: Record<string, unknown> };
      expect(failed._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'GITHUB_RUN_FAILED' });
    } finally {
      await s.close();
    }
  });
});

describe('github over MCP', () => {
  it('takes the token from a github-token secret, refuses a token argument, and leaks the value nowhere', async () => {
    const key = randomBytes(32).toString('hex');
    const planted = `ghp_planted_${randomBytes(12).toString('hex')}`;
    const e = env({ AH_VAULT_MASTER_KEY: key, GITHUB_TOKEN: undefined });
    const vault = createVault({ configDir: e.configDir, key: keySourceFromHex(key) });
    await vault.init();
    await vault.add({ id: 'gh', kind: 'github-token', values: { token: planted } });
    const s = await connectStdio([], { env: e.env });
    const transcript: string[] = [];
    try {
      const ok = await s.client.callTool({
        name: 'ah.github.repo',
        arguments: { repo: 'octocat/Hello-World', api_url: api.url, credentials: { token: 'gh' } },
      });
      transcript.push(JSON.stringify(ok));
      expect((ok as { isError?: boolean }).isError).toBeFalsy();
      expect(last().headers.authorization).toBe(`Bearer ${planted}`);
      const refused = await s.client.callTool({
        name: 'ah.github.repo',
        arguments: { repo: 'octocat/Hello-World', api_url: api.url, token: planted },
      });
      transcript.push(JSON.stringify(refused));
      expect((refused as { _meta?: Record<string, unknown> })._meta?.['dev.aihelper/diagnostic']).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('credentials.token'),
      });
      const listed = await s.client.listTools();
      transcript.push(JSON.stringify(listed));
      // The inline token is a CLI option: the published schema leaves it out.
      const repoTool = listed.tools.find((t) => t.name === 'ah.github.repo');
      expect(Object.keys(repoTool?.inputSchema.properties ?? {})).not.toContain('token');
      expect(Object.keys(repoTool?.inputSchema.properties ?? {})).toContain('credentials');
    } finally {
      await s.close();
    }
    const logs = join(e.configDir, 'logs');
    mkdirSync(logs, { recursive: true });
    const logText = readdirSync(logs)
      .map((f) => readFileSync(join(logs, f), 'utf8'))
      .join('');
    expect(logText).toContain('github.repo');
    for (const text of [...transcript, logText, s.stderr()]) expect(text).not.toContain(planted);
  });
});
