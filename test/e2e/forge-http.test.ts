/**
 * github and gitlab over MCP Streamable HTTP: a call that names its repository or project and no
 * relative file is stateless; anything that would read the git remote or a relative file needs an
 * absolute context.cwd.
 */
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { type FakeApi, fixture, startFakeApi } from '../helpers/fake-api.js';
import { type HttpServer, startHttpServer } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, { code?: string }> };

let github: FakeApi;
let gitlab: FakeApi;
let server: HttpServer;
let client: Client;

beforeAll(async () => {
  github = await startFakeApi('127.0.0.1', '/api/v3');
  gitlab = await startFakeApi('127.0.0.1', '/api/v4');
  github.route('GET', '/repos/octocat/Hello-World', { json: fixture('github', 'repo') });
  gitlab.route('GET', '/projects/group%2Fname', { json: fixture('gitlab', 'project') });
  server = await startHttpServer({
    env: isolatedEnv({ GITHUB_TOKEN: `t-${randomBytes(4).toString('hex')}`, GITLAB_TOKEN: undefined }, { suite: true }).env,
  });
  client = new Client({ name: 'forge-http', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
  await github?.close();
  await gitlab?.close();
});

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;

describe('forges over MCP HTTP', () => {
  it('runs stateless calls without context.cwd', async () => {
    const repo = await call('ah.github.repo', { repo: 'octocat/Hello-World', api_url: github.url });
    expect(repo.structuredContent).toMatchObject({ repository: 'octocat/Hello-World', default_branch: 'master' });
    const project = await call('ah.gitlab.project', { project: 'group/name', api_url: gitlab.url });
    expect(project.structuredContent).toMatchObject({ project: { id: 3 } });
  });

  it('needs an absolute cwd to detect the remote or read a relative file', async () => {
    expect((await call('ah.github.repo', { api_url: github.url }))._meta?.['dev.aihelper/diagnostic']?.code).toBe('INVALID_CONTEXT');
    expect(
      (await call('ah.github.issue.create', { repo: 'octocat/Hello-World', api_url: github.url, title: 't', body_file: 'b.md' }))._meta?.[
        'dev.aihelper/diagnostic'
      ]?.code,
    ).toBe('INVALID_CONTEXT');
    expect((await call('ah.gitlab.project', { api_url: gitlab.url }))._meta?.['dev.aihelper/diagnostic']?.code).toBe('INVALID_CONTEXT');
    // With a cwd outside any clone the remote cannot be detected: the forge's own code says so.
    const outside = await call('ah.gitlab.project', { api_url: gitlab.url, context: { cwd: tempDir() } });
    expect(outside._meta?.['dev.aihelper/diagnostic']?.code).toBe('GITLAB_PROJECT_UNDETECTED');
  });
});
