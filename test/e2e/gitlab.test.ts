/**
 * The gitlab plugin against a loopback API that answers like GitLab's REST API (v4): the full
 * outbound request of every command, subgroup projects, pagination, the token rules per request,
 * traces and pipeline waits.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AhEnv, isolatedEnv, runAh } from '../helpers/cli.js';
import { type FakeApi, fixture, startFakeApi } from '../helpers/fake-api.js';
import { connectStdio } from '../helpers/mcp.js';
import { tempDir } from '../helpers/tmp.js';

const TOKEN = `glpat-${randomBytes(8).toString('hex')}`;
const PROJECT = 'group/sub/name';
const ENCODED = '/projects/group%2Fsub%2Fname';
let api: FakeApi;
let foreign: FakeApi;

function env(extra: NodeJS.ProcessEnv = {}): AhEnv {
  return isolatedEnv({ GITLAB_TOKEN: undefined, GL_TOKEN: undefined, ...extra });
}

const gl = (args: string[], e: AhEnv = env({ GITLAB_TOKEN: TOKEN }), cwd?: string) =>
  runAh(['--json', 'gitlab', ...args, '--api-url', api.url, ...(args.includes('--project') ? [] : ['--project', PROJECT])], {
    env: e.env,
    ...(cwd ? { cwd } : {}),
  });
const last = () => api.requests.at(-1) as FakeApi['requests'][number];

beforeAll(async () => {
  api = await startFakeApi('127.0.0.1', '/api/v4');
  foreign = await startFakeApi('127.0.0.2');
  api.route('GET', ENCODED, { json: fixture('gitlab', 'project') });
});

afterAll(async () => {
  await api?.close();
  await foreign?.close();
});

describe('gitlab reads', () => {
  it('project: subgroup path encoded, env token as bearer', async () => {
    const r = await gl(['project']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ command: 'gitlab.project', project: { id: 3, default_branch: 'main', visibility: 'private' } });
    expect(api.requests.at(-1)?.path).toBe(ENCODED);
    expect(last().headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('issues: filters as query, x-next-page pagination, truncated', async () => {
    const issue = fixture('gitlab', 'issue');
    api.route('GET', `${ENCODED}/issues`, (req) => {
      const page = Number(req.query.page ?? '1');
      const headers: Record<string, string> = page < 2 ? { 'x-next-page': '2' } : {};
      return {
        json: [
          { ...issue, iid: page * 10 + 1 },
          { ...issue, iid: page * 10 + 2 },
        ],
        headers,
      };
    });
    const r = await gl([
      'issues',
      '--state',
      'closed',
      '--labels',
      'bug',
      '--assignee',
      'root',
      '--author',
      'eileen.lowe',
      '--since',
      '2024-01-01',
      '--search',
      'crash',
      '--limit',
      '3',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ issues: [{ iid: 11 }, { iid: 12 }, { iid: 21 }], truncated: true });
    const first = api.requests.find((q) => q.path === `${ENCODED}/issues` && q.query.page === undefined);
    expect(first?.query).toMatchObject({
      state: 'closed',
      labels: 'bug',
      assignee_username: 'root',
      author_username: 'eileen.lowe',
      updated_after: '2024-01-01',
      search: 'crash',
      per_page: '4',
    });
  });

  it('issue view (full: notes, designs over GraphQL), releases, pipelines, pipeline get/jobs', async () => {
    api.route('GET', `${ENCODED}/issues/6`, { json: fixture('gitlab', 'issue') });
    api.route('GET', `${ENCODED}/issues/6/notes`, { json: [fixture('gitlab', 'note')] });
    api.route('POST', '/graphql', {
      json: {
        data: {
          project: {
            issue: {
              designCollection: {
                designs: { nodes: [{ filename: 'ui.png', fullPath: 'designs/issue-6/ui.png', image: 'https://x/ui.png' }] },
              },
            },
          },
        },
      },
    });
    api.route('GET', `${ENCODED}/releases`, { json: [fixture('gitlab', 'release')] });
    api.route('GET', `${ENCODED}/releases/v0.1`, { json: fixture('gitlab', 'release') });
    api.route('GET', `${ENCODED}/pipelines`, { json: [fixture('gitlab', 'pipeline')] });
    api.route('GET', `${ENCODED}/pipelines/46`, { json: fixture('gitlab', 'pipeline') });
    api.route('GET', `${ENCODED}/pipelines/46/jobs`, { json: fixture('gitlab', 'jobs') });
    const cases: [string[], string, Record<string, unknown>][] = [
      [
        ['issue', 'view', '6', '--full', '--graphql-url', `${api.origin}/api/v4/graphql`],
        'gitlab.issue.view',
        { issue: { iid: 6, labels: ['foo', 'bar'] }, notes: [{ id: 302, system: true }], designs: [{ filename: 'ui.png' }], warnings: [] },
      ],
      [['issue', 'comments', '6'], 'gitlab.issue.comments', { comments: [{ id: 302, body: 'closed' }], truncated: false }],
      [['releases'], 'gitlab.releases', { releases: [{ tag_name: 'v0.1', assets: { count: 4, links: [{ name: 'linux-amd64' }] } }] }],
      [
        ['release', 'get', 'v0.1'],
        'gitlab.release.get',
        { release: { name: 'Awesome app v0.1 alpha', web_url: 'https://gitlab.example.com/root/awesome-app/-/releases/v0.1' } },
      ],
      [['pipelines', '--branch', 'main'], 'gitlab.pipelines', { pipelines: [{ id: 46, status: 'running' }] }],
      [['pipeline', 'get', '46'], 'gitlab.pipeline.get', { pipeline: { id: 46, ref: 'main' } }],
      [['pipeline', 'jobs', '46'], 'gitlab.pipeline.jobs', { jobs: [{ id: 7, stage: 'test', status: 'failed' }] }],
    ];
    for (const [args, command, expected] of cases) {
      const r = await gl(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.json()).toMatchObject({ command, ...expected });
    }
    expect(api.requests.find((q) => q.path === `${ENCODED}/pipelines`)?.query).toMatchObject({ ref: 'main' });
    expect(api.requests.find((q) => q.path === '/graphql')?.body).toMatchObject({ variables: { path: PROJECT, iid: '6' } });
  });
});

describe('gitlab writes', () => {
  it('issue create/update/close/comment and release create send exactly the fields given', async () => {
    const issue = fixture('gitlab', 'issue');
    api.route('POST', `${ENCODED}/issues`, (req) => ({ status: 201, json: { ...issue, title: (req.body as { title: string }).title } }));
    api.route('PUT', `${ENCODED}/issues/6`, (req) => ({
      json: { ...issue, state: (req.body as { state_event?: string }).state_event === 'close' ? 'closed' : 'opened' },
    }));
    api.route('POST', `${ENCODED}/issues/6/notes`, (req) => ({
      status: 201,
      json: { ...fixture('gitlab', 'note'), ...(req.body as object), system: false },
    }));
    api.route('POST', `${ENCODED}/releases`, (req) => ({
      status: 201,
      json: { ...fixture('gitlab', 'release'), ...(req.body as object) },
    }));
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.md'), 'Release notes\n');
    const e = env({ GITLAB_TOKEN: TOKEN });

    expect((await gl(['issue', 'create', '--title', 'Crash', '--labels', 'bug', '--labels', 'p1', '--assignee-ids', '1'], e)).code).toBe(0);
    expect(last()).toMatchObject({ method: 'POST', body: { title: 'Crash', labels: 'bug,p1', assignee_ids: [1] } });

    const updated = await gl(['issue', 'update', '6', '--state', 'closed', '--title', 'New'], e);
    expect(updated.code, updated.stderr).toBe(0);
    expect(last()).toMatchObject({ method: 'PUT', body: { state_event: 'close', title: 'New' } });
    expect((await gl(['issue', 'update', '6'], e)).errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT' });

    const before = api.requests.length;
    expect((await gl(['issue', 'close', '6', '--comment', 'Done'], e)).json()).toMatchObject({
      issue: { state: 'closed' },
      comment: { body: 'Done' },
    });
    expect(api.requests.slice(before).map((q) => [q.method, q.path, q.body])).toEqual([
      ['POST', `${ENCODED}/issues/6/notes`, { body: 'Done' }],
      ['PUT', `${ENCODED}/issues/6`, { state_event: 'close' }],
    ]);
    expect((await gl(['issue', 'comment', '6', '--body', 'Thanks'], e)).json()).toMatchObject({ comment: { body: 'Thanks' } });

    const rel = await gl(['release', 'create', 'v2.0', '--description-file', 'notes.md', '--ref', 'main'], e, dir);
    expect(rel.code, rel.stderr).toBe(0);
    expect(last().body).toEqual({ tag_name: 'v2.0', description: 'Release notes\n', ref: 'main' });
  });
});

describe('gitlab tokens and detection', () => {
  it('never sends the token to a GraphQL endpoint on another host', async () => {
    foreign.route('POST', '/api/graphql', { json: { data: { project: null } } });
    const r = await gl(['issue', 'view', '6', '--full', '--graphql-url', `${foreign.url}/api/graphql`]);
    expect(r.code, r.stderr).toBe(0);
    expect(foreign.requests.at(-1)?.path).toBe('/api/graphql');
    expect(foreign.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('refuses cleartext to a non-loopback host, and detects subgroup projects from a self-managed remote', async () => {
    const insecure = await runAh(['--json', 'gitlab', 'project', '--project', 'a/b', '--host', 'http://gitlab.invalid', '--token', 'x'], {
      env: env().env,
    });
    expect(insecure.errorJson()).toMatchObject({ code: 'GITLAB_INSECURE_TOKEN_TARGET' });
    const dir = tempDir();
    execFileSync('git', ['init', '-q', dir]);
    execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'git@127.0.0.1:group/sub/name.git']);
    // The remote names a self-managed host; --api-url points at the fake API on that host.
    const r = await runAh(['--json', 'gitlab', 'project', '--api-url', api.url], { env: env({ GITLAB_TOKEN: TOKEN }).env, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(last().path).toBe(ENCODED);
    expect(last().headers.authorization).toBe(`Bearer ${TOKEN}`);
    const outside = await runAh(['--json', 'gitlab', 'project'], { env: env().env, cwd: tempDir() });
    expect(outside.errorJson()).toMatchObject({ code: 'GITLAB_PROJECT_UNDETECTED' });
  });

  it('maps 401 and a 429 with Retry-After', async () => {
    api.route('GET', '/projects/denied%2Fx', { status: 401, json: { message: '401 Unauthorized' } });
    api.route('GET', '/projects/busy%2Fx', { status: 429, json: { message: 'Retry later' }, headers: { 'retry-after': '30' } });
    expect((await gl(['project', '--project', 'denied/x'])).errorJson()).toMatchObject({ code: 'GITLAB_AUTH_REQUIRED' });
    const busy = (await gl(['project', '--project', 'busy/x'])).errorJson<{ code: string; message: string }>();
    expect(busy.code).toBe('GITLAB_RATE_LIMITED');
    expect(busy.message).toContain('retry in 30 s');
  });
});

describe('gitlab traces and waiting', () => {
  it('job trace greps a plain trace with ANSI stripped; warnings; oversized trace', async () => {
    api.route('GET', `${ENCODED}/jobs/7/trace`, {
      raw: '\u001b[0KRunning with gitlab-runner\n\u001b[31;1mERROR: Job failed\u001b[0;m\nDEPRECATION: old syntax\n',
    });
    const r = await gl(['job', 'trace', '7', '--grep', 'error']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ command: 'gitlab.job.trace', matches: [{ line: 2, text: 'ERROR: Job failed' }], match_count: 1 });
    expect((await gl(['job', 'warnings', '7'])).json()).toMatchObject({ matches: [{ line: 3, text: 'DEPRECATION: old syntax' }] });
    api.route('GET', `${ENCODED}/jobs/8/trace`, { raw: 'x'.repeat(5000) });
    expect((await gl(['job', 'trace', '8', '--max-body-bytes', '1024'])).errorJson()).toMatchObject({ code: 'GITLAB_RESPONSE_TOO_LARGE' });
  });

  it('pipeline wait polls to a terminal status with progress over MCP; fail_on_failure', async () => {
    let polls = 0;
    api.route('GET', `${ENCODED}/pipelines/47`, () => {
      polls += 1;
      return { json: { ...fixture('gitlab', 'pipeline'), id: 47, status: polls >= 2 ? 'failed' : 'running' } };
    });
    const s = await connectStdio([], { env: env({ GITLAB_TOKEN: TOKEN }).env });
    try {
      const progress: string[] = [];
      const ok = (await s.client.callTool(
        { name: 'ah.gitlab.pipeline.wait', arguments: { project: PROJECT, api_url: api.url, pipeline_id: 47, interval_secs: 1 } },
        { onprogress: (p: { message?: string }) => progress.push(p.message ?? ''), timeout: 20_000 },
      )) as { structuredContent?: Record<string, unknown> };
      expect(ok.structuredContent).toMatchObject({ completed: true, polls: 2, pipeline: { status: 'failed' } });
      expect(progress[0]).toContain('running');
      polls = 0;
      const failed = (await s.client.callTool({
        name: 'ah.gitlab.pipeline.wait',
        arguments: { project: PROJECT, api_url: api.url, pipeline_id: 47, interval_secs: 1, fail_on_failure: true },
      })) as { _meta?: Record<string, unknown> };
      expect(failed._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'GITLAB_PIPELINE_FAILED' });
      const refused = (await s.client.callTool({
        name: 'ah.gitlab.project',
        arguments: { project: PROJECT, api_url: api.url, token: 'x' },
      })) as {
        _meta?: Record<string, unknown>;
      };
      expect(refused._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'INVALID_ARGUMENT' });
    } finally {
      await s.close();
    }
  });
});
