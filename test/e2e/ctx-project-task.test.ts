// ctx, project and task from the built `ah`: CLI text and --json, MCP over stdio (same JSON as the
// CLI) and over HTTP (an absolute context.cwd is required), progress and risk metadata.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAh } from '../helpers/cli.js';
import { type HttpServer, startHttpServer } from '../helpers/http.js';
import { connectStdio, type StdioServer } from '../helpers/mcp.js';
import { suiteTempDir } from '../helpers/tmp.js';

type Result = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { text: string }[];
  _meta?: Record<string, Record<string, unknown>>;
};

const identity = {
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.test',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.test',
  GIT_CONFIG_NOSYSTEM: '1',
};

let dir = '';
let env: NodeJS.ProcessEnv = {};
let stdio: StdioServer;
let http: HttpServer;
let httpClient: Client;

beforeAll(async () => {
  dir = suiteTempDir('ah-ctx-e2e-');
  const isolated = isolatedEnv(identity, { suite: true });
  env = isolated.env;
  env.GIT_CONFIG_GLOBAL = join(isolated.home, '.gitconfig');
  writeFileSync(env.GIT_CONFIG_GLOBAL, '');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'demo', version: '1.2.3', scripts: { test: 'node --test' } }));
  writeFileSync(join(dir, 'package-lock.json'), '{}');
  writeFileSync(join(dir, 'src', 'app.ts'), 'export class App {\n  start() {\n  }\n}\nexport function main() {}\n');
  writeFileSync(join(dir, 'README.md'), '# Demo\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
  writeFileSync(join(dir, 'README.md'), '# Demo\n\nchanged\n');
  stdio = await connectStdio([], { cwd: dir, env });
  http = await startHttpServer({ env });
  httpClient = new Client({ name: 'ctx-http', version: '1' });
  await httpClient.connect(new StreamableHTTPClientTransport(new URL(http.url)));
});

afterAll(async () => {
  await httpClient?.close().catch(() => undefined);
  await stdio?.close();
  await http?.stop();
});

async function cliJson(args: string[]): Promise<Record<string, unknown>> {
  const r = await runAh(['--json', ...args], { cwd: dir, env });
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

async function cliText(args: string[]): Promise<string> {
  const r = await runAh(args, { cwd: dir, env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

async function callStdio(name: string, args: Record<string, unknown>): Promise<Result> {
  return (await stdio.client.callTool({ name, arguments: args })) as Result;
}

async function callHttp(name: string, args: Record<string, unknown>): Promise<Result> {
  return (await httpClient.callTool({ name, arguments: args })) as Result;
}

// One call per command: CLI argv and the same call as MCP arguments.
const CASES: { tool: string; cli: string[]; args: Record<string, unknown>; text: RegExp }[] = [
  {
    tool: 'ah.ctx.pack',
    cli: ['ctx', 'pack', '--preset', 'summary'],
    args: { preset: 'summary' },
    text: /src\/app\.ts {2}5 lines, \d+ B {2}\[App, start, main\]/,
  },
  { tool: 'ah.ctx.symbols', cli: ['ctx', 'symbols', 'src'], args: { path: 'src' }, text: /src\/app\.ts \(3\)\n\s+1 class App/ },
  { tool: 'ah.ctx.changed', cli: ['ctx', 'changed'], args: {}, text: /^modified\s+README\.md$/m },
  { tool: 'ah.project.detect', cli: ['project', 'detect'], args: {}, text: /^ecosystems: node$/m },
  { tool: 'ah.project.commands', cli: ['project', 'commands'], args: {}, text: /^test +npm test$/m },
  { tool: 'ah.project.version', cli: ['project', 'version'], args: {}, text: /^package\.json {2}demo {2}1\.2\.3 {2}\(high\)$/m },
  { tool: 'ah.task.list', cli: ['task', 'list'], args: {}, text: /^hello +echo hello-from-task$/m },
  {
    tool: 'ah.task.run',
    cli: ['task', 'run', 'hello'],
    args: { name: 'hello' },
    text: /^ok: task hello \(exit 0\)\n--- stdout\nhello-from-task$/m,
  },
];

describe('ctx, project and task end to end', () => {
  it('task save works from the CLI (text and JSON) and over MCP', async () => {
    expect(await cliText(['task', 'save', 'hello', 'echo hello-from-task'])).toBe(
      `saved task hello in ${join(dir, '.ah', 'tasks.json')}\n`,
    );
    expect(await cliJson(['task', 'save', 'second', 'echo two'])).toMatchObject({
      command: 'task.save',
      name: 'second',
      task_command: 'echo two',
    });
    const viaStdio = await callStdio('ah.task.save', { name: 'third', command: 'echo three' });
    expect(viaStdio.structuredContent).toMatchObject({ command: 'task.save', name: 'third', store_path: join(dir, '.ah', 'tasks.json') });
    const viaHttp = await callHttp('ah.task.save', { name: 'fourth', command: 'echo four', context: { cwd: dir } });
    expect(viaHttp.structuredContent).toMatchObject({ command: 'task.save', name: 'fourth' });
    const stored = JSON.parse(readFileSync(join(dir, '.ah', 'tasks.json'), 'utf8'));
    expect(stored.tasks.map((t: { name: string }) => t.name)).toEqual(['hello', 'second', 'third', 'fourth']);
  });

  it.each(CASES.map((c) => [c.tool, c] as const))('%s: CLI text, CLI JSON = MCP stdio = MCP HTTP structured content', async (_tool, c) => {
    expect(await cliText(c.cli)).toMatch(c.text);
    const json = await cliJson(c.cli);
    const viaStdio = await callStdio(c.tool, c.args);
    expect(viaStdio.isError, viaStdio.content[0]?.text).toBeFalsy();
    expect(viaStdio.structuredContent).toEqual(json);
    expect(JSON.parse(viaStdio.content[0]?.text ?? '')).toEqual(json);
    const viaHttp = await callHttp(c.tool, { ...c.args, context: { cwd: dir } });
    expect(viaHttp.structuredContent).toEqual(json);
  });

  it('over HTTP every one of the nine needs an absolute context.cwd', async () => {
    const all = [...CASES, { tool: 'ah.task.save', args: { name: 'x', command: 'true' } }];
    for (const c of all) {
      const missing = await callHttp(c.tool, c.args);
      expect(missing._meta?.['dev.aihelper/diagnostic']?.code, c.tool).toBe('INVALID_CONTEXT');
      const relative = await callHttp(c.tool, { ...c.args, context: { cwd: 'relative' } });
      expect(relative._meta?.['dev.aihelper/diagnostic']?.code, c.tool).toBe('INVALID_CONTEXT');
    }
  });

  it('publishes the nine tools with the risk the contract gives', async () => {
    const { tools } = await stdio.client.listTools();
    const risk = (name: string) => {
      const tool = tools.find((t) => t.name === name);
      return { level: (tool?._meta?.['dev.aihelper/risk'] as { level?: string } | undefined)?.level, annotations: tool?.annotations };
    };
    for (const name of [
      'ah.ctx.pack',
      'ah.ctx.symbols',
      'ah.ctx.changed',
      'ah.project.detect',
      'ah.project.commands',
      'ah.project.version',
    ]) {
      expect(risk(name)).toMatchObject({ level: 'low', annotations: { readOnlyHint: true, destructiveHint: false } });
    }
    expect(risk('ah.task.save')).toMatchObject({
      level: 'high',
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    });
    expect(risk('ah.task.list')).toMatchObject({ level: 'medium', annotations: { readOnlyHint: true } });
    expect(risk('ah.task.run')).toMatchObject({ level: 'critical', annotations: { destructiveHint: true, openWorldHint: true } });
    const info = await cliJson(['ai', 'info']);
    expect(JSON.stringify(info)).toContain('ctx.symbols');
    expect(JSON.stringify(info)).toContain('task.run');
  });

  it('task run: TASK_NOT_FOUND and TASK_TIMEOUT as errors, progress notifications over MCP', async () => {
    const missing = await runAh(['--json', 'task', 'run', 'nope'], { cwd: dir, env });
    expect(missing.code).toBe(1);
    expect(missing.errorJson()).toMatchObject({ code: 'TASK_NOT_FOUND', domain: 'task' });
    await cliJson(['task', 'save', 'slow', 'sleep 2.6; echo done']);
    const messages: string[] = [];
    const slow = (await stdio.client.callTool(
      { name: 'ah.task.run', arguments: { name: 'slow' } },
      { onprogress: (p: { message?: string }) => messages.push(p.message ?? ''), timeout: 20_000 },
    )) as Result;
    expect(slow.structuredContent).toMatchObject({ success: true, stdout: 'done\n' });
    expect(messages.length).toBeGreaterThanOrEqual(1);
    expect(messages[0]).toMatch(/^task slow: running for \d+ s, \d+ bytes of output$/);
    const timedOut = await callStdio('ah.task.run', { name: 'slow', timeout_secs: 1 });
    expect(timedOut.isError).toBe(true);
    expect(timedOut.content[0]?.text).toMatch(/^TASK_TIMEOUT: /);
  });

  it('ctx changed outside a repository', async () => {
    const plain = suiteTempDir('ah-ctx-plain-');
    const r = await runAh(['ctx', 'changed'], { cwd: plain, env });
    expect(r.stdout).toBe('not a git repository\n');
    const json = await runAh(['--json', 'ctx', 'changed'], { cwd: plain, env });
    expect(json.json()).toEqual({ command: 'ctx.changed', in_git_repo: false, changed_count: 0, entries: [] });
  });
});
