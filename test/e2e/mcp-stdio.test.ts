// `ah mcp serve` over real stdio with the real SDK clients (v2, and v1 for the older protocol).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { AH_BIN, isolatedEnv, runAh } from '../helpers/cli.js';
import { connectStdio, RawStdioPeer, type StdioServer, waitFor } from '../helpers/mcp.js';
import { installTestPlugin } from '../helpers/plugins.js';
import { tempDir } from '../helpers/tmp.js';

const open: Array<{ close: () => Promise<void> | void }> = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

async function server(args: string[] = [], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<StdioServer> {
  const s = await connectStdio(args, options);
  open.push(s);
  return s;
}

function raw(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): RawStdioPeer {
  const peer = new RawStdioPeer(args, options);
  open.push({ close: () => void peer.child.kill('SIGKILL') });
  return peer;
}

type Result = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { text: string }[];
  _meta?: Record<string, Record<string, unknown>>;
};

describe('mcp serve over stdio', () => {
  it('publishes every enabled command plus the job tools with complete metadata', async () => {
    const s = await server();
    const { tools } = await s.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('ah.file.read');
    expect(names).toContain('ah.git.tag.create');
    expect(names.filter((n) => n.startsWith('ah.job.'))).toEqual(['ah.job.cancel', 'ah.job.result', 'ah.job.start', 'ah.job.status']);
    expect(names).not.toContain('ah.mcp.serve');
    // Conformance fixtures exist only behind an internal test switch.
    expect(names.filter((n) => !n.startsWith('ah.'))).toEqual([]);
    expect([...names].sort()).toEqual(names);
    for (const tool of tools) {
      expect(tool.annotations).toEqual({
        title: expect.any(String),
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
        openWorldHint: expect.any(Boolean),
      });
      expect(tool.execution).toEqual({ taskSupport: 'forbidden' });
      expect(tool._meta?.['dev.aihelper/risk']).toEqual({
        level: expect.any(String),
        impact: expect.any(String),
        effects: expect.any(Array),
        reversibility: expect.any(String),
      });
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description).toMatch(/Risk: (low|medium|high|critical)\./);
      if (!tool.name.startsWith('ah.job.')) {
        const context = (
          tool.inputSchema.properties as Record<string, { properties: Record<string, unknown>; additionalProperties: boolean }>
        ).context;
        expect(Object.keys(context?.properties ?? {})).toEqual(['cwd', 'limit', 'timeout_ms']);
        expect(context?.additionalProperties).toBe(false);
        expect(tool.description).toContain('context.cwd');
        expect(tool.description).toContain('Examples:\n- ');
      }
    }
    const start = tools.find((t) => t.name === 'ah.job.start');
    expect(start?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
    expect(start?._meta?.['dev.aihelper/risk']).toMatchObject({ level: 'critical' });
    const init = s.client.getServerVersion();
    expect(init).toEqual({ name: 'aihelper', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(s.client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
  });

  it('returns the same structured data as the CLI --json for each domain', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'alpha\nneedle\n');
    const { env } = isolatedEnv();
    const s = await server([], { cwd: dir, env });
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['ah.file.read', { path: 'notes.txt' }, ['file', 'read', 'notes.txt']],
      ['ah.file.tree', {}, ['file', 'tree']],
      ['ah.search.text', { pattern: 'needle' }, ['search', 'text', 'needle']],
      ['ah.search.files', { query: 'notes' }, ['search', 'files', 'notes']],
      ['ah.git.status', {}, ['git', 'status']],
      ['ah.plugins.list', {}, ['plugins', 'list']],
      ['ah.ai.info', { domain: 'file' }, ['ai', 'info', '--domain', 'file']],
    ];
    for (const [tool, args, argv] of cases) {
      const result = (await s.client.callTool({ name: tool, arguments: { ...args, context: { cwd: dir } } })) as Result;
      expect(result.isError ?? false).toBe(false);
      const cli = await runAh(['--json', ...argv], { cwd: dir, env });
      expect(result.structuredContent).toEqual(cli.json());
      expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent);
      expect(result._meta?.['dev.aihelper/execution']).toMatchObject({ request_id: expect.stringMatching(/^mcp:n:\d+:e:\d+$/) });
    }
    const run = (await s.client.callTool({
      name: 'ah.run.check',
      arguments: { command: [process.execPath, '-e', 'console.log(1)'], context: { cwd: dir } },
    })) as Result;
    const cliRun = (await runAh(['--json', 'run', 'check', '--', process.execPath, '-e', 'console.log(1)'], { cwd: dir, env })).json();
    expect({ ...run.structuredContent, duration_ms: 0 }).toEqual({ ...cliRun, duration_ms: 0 });
  });

  it('turns bad arguments and bad context into tool errors and unknown tools into protocol errors', async () => {
    const s = await server();
    const bad = (await s.client.callTool({ name: 'ah.file.read', arguments: { nope: 1 } })) as Result;
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toMatch(/^INVALID_ARGUMENT: /);
    expect(bad._meta?.['dev.aihelper/diagnostic']).toMatchObject({
      code: 'INVALID_ARGUMENT',
      retryable: false,
      exit_code_hint: 1,
      // Named in MCP words: the missing property, or the one that is not in the schema.
      message: expect.stringMatching(/^invalid arguments for file\.read: (missing path|unknown property 'nope')$/),
    });
    const ctx = (await s.client.callTool({ name: 'ah.file.read', arguments: { path: 'x', context: { cwd: '' } } })) as Result;
    expect(ctx._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'INVALID_CONTEXT', exit_code_hint: 2 });
    const extra = (await s.client.callTool({ name: 'ah.file.read', arguments: { path: 'x', context: { color: 'red' } } })) as Result;
    expect(extra._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'INVALID_CONTEXT' });
    await expect(s.client.callTool({ name: 'ah.nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('applies context.limit, falls back to --cwd, and times out with EXECUTION_TIMEOUT', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), '1\n2\n3\n');
    const s = await server(['--cwd', dir, '--limit', '2']);
    const limited = (await s.client.callTool({ name: 'ah.file.read', arguments: { path: 'a.txt' } })) as Result;
    expect(limited.structuredContent).toMatchObject({ line_count: 2, truncated: true });
    const one = (await s.client.callTool({ name: 'ah.file.read', arguments: { path: 'a.txt', context: { limit: 1 } } })) as Result;
    expect(one.structuredContent).toMatchObject({ line_count: 1 });
    const slow = (await s.client.callTool({
      name: 'ah.run.check',
      arguments: { command: [process.execPath, '-e', 'setTimeout(()=>{}, 30000)'], context: { timeout_ms: 300 } },
    })) as Result;
    expect(slow._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'EXECUTION_TIMEOUT', retryable: true });
  });

  it('admits exactly --max-active calls at once; the next fails immediately and never starts', async () => {
    const { env, configDir } = isolatedEnv();
    installTestPlugin(configDir);
    const gate = tempDir();
    const s = await server([], { env });
    const calls = Array.from({ length: 32 }, (_, i) =>
      s.client.callTool({ name: 'ah.testkit.gate', arguments: { dir: gate, name: `c${i}` } }),
    );
    await waitFor(() => existsSync(join(gate, 'started')) && readdirSync(join(gate, 'started')).length === 32);
    const started = Date.now();
    const extra = (await s.client.callTool({ name: 'ah.testkit.gate', arguments: { dir: gate, name: 'extra' } })) as Result;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(extra._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'EXECUTION_CAPACITY_FULL', retryable: true });
    const job = (await s.client.callTool({
      name: 'ah.job.start',
      arguments: { tool: 'ah.testkit.gate', arguments: { dir: gate, name: 'job' } },
    })) as Result;
    expect(job._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'EXECUTION_CAPACITY_FULL' });
    // Management calls never take a slot.
    expect(
      ((await s.client.callTool({ name: 'ah.job.status', arguments: { job_id: 'job-0000000000000000-0000000000000001' } })) as Result)
        ._meta?.['dev.aihelper/diagnostic'],
    ).toMatchObject({ code: 'JOB_NOT_FOUND' });
    await s.client.ping();
    writeFileSync(join(gate, 'release'), '');
    const results = (await Promise.all(calls)) as Result[];
    expect(results.every((r) => !r.isError)).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(join(gate, 'started', 'extra'))).toBe(false);
    expect(existsSync(join(gate, 'started', 'job'))).toBe(false);
  });

  it('runs jobs: start, status, result (repeatable), cancel, and shares slots with direct calls', async () => {
    const { env, configDir } = isolatedEnv();
    installTestPlugin(configDir);
    const gate = tempDir();
    const s = await server(['--max-active', '2'], { env });
    const start = (await s.client.callTool({
      name: 'ah.job.start',
      arguments: { tool: 'ah.testkit.gate', arguments: { dir: gate, name: 'j1' } },
    })) as Result;
    expect(start.structuredContent).toEqual({
      job_id: expect.stringMatching(/^job-[0-9a-f]{16}-\d{16}$/),
      tool: 'ah.testkit.gate',
      status: 'running',
      draining: false,
    });
    const jobId = start.structuredContent?.job_id as string;
    const direct = s.client.callTool({ name: 'ah.testkit.gate', arguments: { dir: gate, name: 'd1' } });
    await waitFor(() => existsSync(join(gate, 'started', 'd1')) && existsSync(join(gate, 'started', 'j1')));
    const full = (await s.client.callTool({ name: 'ah.testkit.echo', arguments: { text: 'x' } })) as Result;
    expect(full._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'EXECUTION_CAPACITY_FULL' });
    expect(((await s.client.callTool({ name: 'ah.job.result', arguments: { job_id: jobId } })) as Result).structuredContent).toMatchObject({
      ready: false,
      status: 'running',
    });
    writeFileSync(join(gate, 'release'), '');
    await direct;
    await waitFor(() => existsSync(join(gate, 'finished-j1')));
    await new Promise((r) => setTimeout(r, 50));
    const first = ((await s.client.callTool({ name: 'ah.job.result', arguments: { job_id: jobId } })) as Result).structuredContent;
    expect(first).toMatchObject({
      ready: true,
      status: 'succeeded',
      draining: false,
      response: { success: true, data: { command: 'testkit.gate', name: 'j1' } },
    });
    expect(((await s.client.callTool({ name: 'ah.job.result', arguments: { job_id: jobId } })) as Result).structuredContent).toEqual(first);
    expect(((await s.client.callTool({ name: 'ah.job.cancel', arguments: { job_id: jobId } })) as Result).structuredContent).toMatchObject({
      status: 'succeeded',
    });
    const nested = (await s.client.callTool({
      name: 'ah.job.start',
      arguments: { tool: 'ah.job.status', arguments: { job_id: jobId } },
    })) as Result;
    expect(nested._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'INVALID_ARGUMENT', exit_code_hint: 2 });
    const badTarget = (await s.client.callTool({
      name: 'ah.job.start',
      arguments: { tool: 'ah.file.read', arguments: { nope: 1 } },
    })) as Result;
    expect(badTarget._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('cancels run.check jobs and direct calls, killing the process tree', async () => {
    const dir = tempDir();
    const s = await server(['--cwd', dir]);
    const pidFile = join(dir, 'pids');
    const script = `const c = require("child_process").spawn(process.execPath, ["-e", "setTimeout(()=>{}, 60000)"], { stdio: "ignore" }); require("fs").writeFileSync(${JSON.stringify(pidFile)}, process.pid + " " + c.pid); setTimeout(()=>{}, 60000)`;
    const start = (await s.client.callTool({
      name: 'ah.job.start',
      arguments: { tool: 'ah.run.check', arguments: { command: [process.execPath, '-e', script] } },
    })) as Result;
    const jobId = start.structuredContent?.job_id as string;
    await waitFor(() => existsSync(pidFile));
    const cancelled = ((await s.client.callTool({ name: 'ah.job.cancel', arguments: { job_id: jobId } })) as Result).structuredContent;
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    const { survivors } = await import('../helpers/process.js');
    const { readFileSync } = await import('node:fs');
    expect(await survivors(readFileSync(pidFile, 'utf8').split(' ').map(Number))).toEqual([]);
    const result = ((await s.client.callTool({ name: 'ah.job.result', arguments: { job_id: jobId } })) as Result).structuredContent;
    expect(result).toMatchObject({
      ready: true,
      status: 'cancelled',
      response: { success: false, error: { code: 'EXECUTION_CANCELLED' } },
    });

    const controller = new AbortController();
    const pidFile2 = join(dir, 'pids2');
    const direct = s.client.callTool(
      { name: 'ah.run.check', arguments: { command: [process.execPath, '-e', script.replace(pidFile, pidFile2)] } },
      { signal: controller.signal },
    );
    await waitFor(() => existsSync(pidFile2));
    controller.abort();
    await expect(direct).rejects.toThrow();
    expect(await survivors(readFileSync(pidFile2, 'utf8').split(' ').map(Number))).toEqual([]);
  });

  it('keeps an uncooperative handler draining on its own slot', async () => {
    const { env, configDir } = isolatedEnv();
    installTestPlugin(configDir);
    const gate = tempDir();
    const s = await server(['--max-active', '2'], { env });
    const start = (await s.client.callTool({
      name: 'ah.job.start',
      arguments: { tool: 'ah.testkit.gate', arguments: { dir: gate, name: 'stubborn', ignore_cancel: true } },
    })) as Result;
    const jobId = start.structuredContent?.job_id as string;
    await waitFor(() => existsSync(join(gate, 'started', 'stubborn')));
    expect(((await s.client.callTool({ name: 'ah.job.cancel', arguments: { job_id: jobId } })) as Result).structuredContent).toMatchObject({
      status: 'cancelled',
      draining: true,
    });
    // One slot is still held by the draining handler; the other is free.
    expect(((await s.client.callTool({ name: 'ah.testkit.echo', arguments: { text: 'ok' } })) as Result).isError ?? false).toBe(false);
    writeFileSync(join(gate, 'release'), '');
    await waitFor(() => existsSync(join(gate, 'finished-stubborn')));
    await new Promise((r) => setTimeout(r, 50));
    expect(((await s.client.callTool({ name: 'ah.job.status', arguments: { job_id: jobId } })) as Result).structuredContent).toMatchObject({
      status: 'cancelled',
      draining: false,
    });
  });

  it('retains at most the configured job records and evicts the oldest completed first', async () => {
    const { env, configDir } = isolatedEnv({ AH_INTERNAL_JOB_MAX_RECORDS: '2' });
    installTestPlugin(configDir);
    // One gate per job, so they complete in a known order.
    const gates = { a: tempDir(), b: tempDir(), c: tempDir() };
    const s = await server([], { env });
    const start = async (name: 'a' | 'b' | 'c') =>
      (await s.client.callTool({
        name: 'ah.job.start',
        arguments: { tool: 'ah.testkit.gate', arguments: { dir: gates[name], name } },
      })) as Result;
    const status = async (id: string) => (await s.client.callTool({ name: 'ah.job.status', arguments: { job_id: id } })) as Result;
    const settle = async (id: string) => {
      for (let i = 0; i < 200; i += 1) {
        const r = (await status(id)).structuredContent;
        if (r?.status === 'succeeded' && r.draining === false) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`job ${id} did not finish`);
    };
    const a = (await start('a')).structuredContent?.job_id as string;
    const b = (await start('b')).structuredContent?.job_id as string;
    expect((await start('c'))._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'JOB_CAPACITY_FULL', retryable: true });
    writeFileSync(join(gates.a, 'release'), '');
    await settle(a);
    writeFileSync(join(gates.b, 'release'), '');
    await settle(b);
    const c = (await start('c')).structuredContent?.job_id as string;
    expect(c).toMatch(/-0000000000000003$/);
    expect((await status(a))._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'JOB_NOT_FOUND' });
    expect((await status(b)).structuredContent).toMatchObject({ status: 'succeeded' });
    writeFileSync(join(gates.c, 'release'), '');
  });

  it('sends tools/list_changed when a domain is disabled and refuses its calls', async () => {
    const { env } = isolatedEnv();
    const s = await server([], { env });
    let changed = 0;
    s.client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed += 1;
    });
    const result = (await s.client.callTool({ name: 'ah.plugins.disable', arguments: { domain: 'git' } })) as Result;
    expect(result.structuredContent).toMatchObject({ changed: true, disabled_domains: ['git'] });
    await waitFor(() => changed === 1);
    const { tools } = await s.client.listTools();
    expect(tools.some((t) => t.name.startsWith('ah.git.'))).toBe(false);
    const refused = (await s.client.callTool({ name: 'ah.git.status', arguments: {} })) as Result;
    expect(refused._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'DOMAIN_DISABLED' });
    await s.client.callTool({ name: 'ah.plugins.enable', arguments: { domain: 'git' } });
    await waitFor(() => changed === 2);
  });

  it('marks tools/list cacheable, so the SDK client lists once and again only after list_changed', async () => {
    const { env } = isolatedEnv();
    const s = await server([], { env });
    const listed: unknown[] = [];
    const send = s.transport.send.bind(s.transport);
    s.transport.send = (message) => {
      if ('method' in message && message.method === 'tools/list') listed.push(message);
      return send(message);
    };
    let changed = 0;
    s.client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed += 1;
    });
    const first = await s.client.listTools();
    const again = await s.client.listTools();
    expect(again.tools.map((t) => t.name)).toEqual(first.tools.map((t) => t.name));
    expect(listed).toHaveLength(1);
    await s.client.callTool({ name: 'ah.plugins.disable', arguments: { domain: 'git' } });
    await waitFor(() => changed === 1);
    const after = await s.client.listTools();
    expect(listed).toHaveLength(2);
    expect(after.tools.some((t) => t.name.startsWith('ah.git.'))).toBe(false);
  });

  it('follows plugins.json changed by another process: list_changed, refusal, and back', async () => {
    const { env } = isolatedEnv();
    const s = await server([], { env });
    let changed = 0;
    s.client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed += 1;
    });
    expect((await runAh(['plugins', 'disable', 'git'], { env })).code).toBe(0);
    await waitFor(() => changed === 1);
    const { tools } = await s.client.listTools();
    expect(tools.some((t) => t.name.startsWith('ah.git.'))).toBe(false);
    const refused = (await s.client.callTool({ name: 'ah.git.status', arguments: {} })) as Result;
    expect(refused._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'DOMAIN_DISABLED' });
    expect((await runAh(['plugins', 'enable', 'git'], { env })).code).toBe(0);
    await waitFor(() => changed === 2);
    expect((await s.client.listTools()).tools.some((t) => t.name === 'ah.git.status')).toBe(true);
  });

  it('sends progress notifications for long calls that ask for them', async () => {
    const s = await server();
    const messages: string[] = [];
    await s.client.callTool(
      { name: 'ah.run.check', arguments: { command: [process.execPath, '-e', 'setTimeout(()=>{}, 2600)'] } },
      { onprogress: (p: { message?: string }) => messages.push(p.message ?? ''), timeout: 20_000 },
    );
    expect(messages.length).toBeGreaterThanOrEqual(1);
    expect(messages.length).toBeLessThanOrEqual(3);
    expect(messages[0]).toMatch(/running for \d+ s, \d+ bytes of output/);
  });

  it('serves a 2026-07-28 client (per-request protocol) with the same tools and results', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'x\n');
    const s = await connectStdio([], { cwd: dir, protocol: '2026-07-28' });
    open.push(s);
    expect(s.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).toContain('ah.job.start');
    const result = (await s.client.callTool({ name: 'ah.file.read', arguments: { path: 'a.txt' } })) as Result;
    expect(result.structuredContent).toMatchObject({ command: 'file.read', content: 'x' });
  });

  it('serves the v1 SDK client on an older protocol version', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'x\n');
    const transport = new V1StdioTransport({
      command: process.execPath,
      args: [AH_BIN, 'mcp', 'serve'],
      cwd: dir,
      env: isolatedEnv().env as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(transport);
    open.push(client);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(20);
    const result = (await client.callTool({ name: 'ah.file.read', arguments: { path: 'a.txt' } })) as Result;
    expect(result.structuredContent).toMatchObject({ content: 'x' });
  });
});

/**
 * `ah mcp serve` handed initialize, initialized and tools/list (ids 1 and 2) and the end of stdin
 * all at once, with its stdout not read until the test resumes it.
 */
function batchThenEof(): { child: ChildProcessWithoutNullStreams; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [AH_BIN, 'mcp', 'serve'], { env: isolatedEnv().env, stdio: ['pipe', 'pipe', 'pipe'] });
  open.push({ close: () => void child.kill('SIGKILL') });
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  child.stdout.pause();
  const requests = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ];
  child.stdin.end(`${requests.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return { child, exited };
}

describe('mcp serve lifecycle', () => {
  it('exits 0 on stdin EOF, keeping stdout pure JSON-RPC', async () => {
    const peer = raw(['mcp', 'serve']);
    const init = await peer.initialize();
    expect(init.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'aihelper' } });
    peer.send({ id: 1, method: 'tools/list' });
    // Caching hints (SEP-2549): reusable for TOOLS_LIST_TTL_MS, the same for every caller.
    expect((await peer.response(1)).result).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    const started = Date.now();
    peer.closeStdin();
    expect(await peer.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(peer.badLines).toEqual([]);
  });

  it('delivers every answer written before stdin EOF to a reader that is slow to read', async () => {
    // All requests and the EOF arrive at once; the client reads nothing for a while, so the
    // tools/list answer (hundreds of KB) is still queued for the pipe when shutdown begins.
    const { child, exited } = batchThenEof();
    await new Promise((resolve) => setTimeout(resolve, 800));
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdout.resume();
    expect(await exited).toBe(0);
    const lines = Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean);
    const answers = lines.map((line) => JSON.parse(line) as { id?: number; result?: { tools?: unknown[] } });
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(answers[1]?.result?.tools?.length).toBeGreaterThan(20);
  });

  it('gives up on a client that never reads its answers when the shutdown budget ends', async () => {
    const started = Date.now();
    // stdout is never read: the tools/list answer can never leave.
    const { child, exited } = batchThenEof();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    expect(await exited).toBe(1);
    expect(Date.now() - started).toBeLessThan(9000);
    expect(stderr).toContain('MCP_SHUTDOWN_TIMEOUT');
    expect(stderr).toContain('answers to the client still unsent or unread after stdin-eof');
  }, 15_000);

  it('exits 0 on SIGTERM while a call runs, killing the child', async () => {
    const dir = tempDir();
    const peer = raw(['--cwd', dir, 'mcp', 'serve']);
    await peer.initialize();
    const pidFile = join(dir, 'pid');
    peer.send({
      id: 5,
      method: 'tools/call',
      params: {
        name: 'ah.run.check',
        arguments: {
          command: [
            process.execPath,
            '-e',
            `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(()=>{}, 60000)`,
          ],
        },
      },
    });
    await waitFor(() => existsSync(pidFile));
    peer.child.kill('SIGTERM');
    expect(await peer.exited).toBe(0);
    const { survivors } = await import('../helpers/process.js');
    const { readFileSync } = await import('node:fs');
    expect(await survivors([Number(readFileSync(pidFile, 'utf8'))])).toEqual([]);
  });

  it('exits 1 with MCP_SHUTDOWN_TIMEOUT when a handler ignores cancellation past the budget', async () => {
    const { env, configDir } = isolatedEnv();
    installTestPlugin(configDir);
    const gate = tempDir();
    const peer = raw(['mcp', 'serve'], { env });
    await peer.initialize();
    peer.send({
      id: 3,
      method: 'tools/call',
      params: { name: 'ah.testkit.gate', arguments: { dir: gate, name: 'stuck', ignore_cancel: true } },
    });
    await waitFor(() => existsSync(join(gate, 'started', 'stuck')));
    const started = Date.now();
    peer.closeStdin();
    expect(await peer.exited).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
    expect(peer.stderr).toContain('MCP_SHUTDOWN_TIMEOUT');
  }, 20_000);

  it('exits when its parent dies without closing stdin', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'server.pid');
    // A parent that starts the server with an inherited open pipe, records its pid, then dies.
    const parent = raw(['--version']);
    await parent.exited;
    const { spawn } = await import('node:child_process');
    const launcher = spawn(
      process.execPath,
      [
        '-e',
        `const c = require("child_process").spawn(process.execPath, [${JSON.stringify(AH_BIN)}, "mcp", "serve"], { stdio: ["pipe", "ignore", "ignore"], detached: true }); require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setTimeout(() => process.kill(process.pid, "SIGKILL"), 800);`,
      ],
      { stdio: 'ignore', env: isolatedEnv().env },
    );
    await new Promise((r) => launcher.on('close', r));
    mkdirSync(join(dir, 'x'), { recursive: true });
    const { survivors } = await import('../helpers/process.js');
    const { readFileSync } = await import('node:fs');
    expect(await survivors([Number(readFileSync(pidFile, 'utf8'))], 8000)).toEqual([]);
  }, 20_000);

  it('rejects invalid startup configuration with exit 1', async () => {
    // --json is refused for mcp serve, so the text diagnostic (ending in [CODE]) is checked.
    const code = async (args: string[]) => {
      const r = await runAh(['mcp', 'serve', ...args], { input: '' });
      expect(r.code).toBe(1);
      return /\[([A-Z_]+)\]\s*$/.exec(r.stderr)?.[1];
    };
    expect(await code(['--port', '9000'])).toBe('INVALID_ARGUMENT');
    const queued = await runAh(['mcp', 'serve', '--max-queued', '4']);
    expect(queued.code).toBe(1);
    expect(queued.stderr).toContain('--max-queued was removed');
    expect(queued.stderr).toContain('--max-active');
    expect(await code(['--max-active', '0'])).toBe('INVALID_RANGE');
    expect(await code(['--default-timeout-ms', '0'])).toBe('INVALID_RANGE');
    expect(await code(['--transport', 'carrier-pigeon'])).toBe('INVALID_ARGUMENT');
    const json = await runAh(['--json', 'mcp', 'serve']);
    expect(json.code).toBe(1);
    expect(json.errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('refuses to start when a plugin publishes job.* commands', async () => {
    const { env, configDir } = isolatedEnv();
    mkdirSync(join(configDir, 'plugins'), { recursive: true });
    writeFileSync(
      join(configDir, 'plugins', 'job.mjs'),
      `export default { domain: 'job', pluginName: 'bad', description: 'x', commands: [{ id: 'job.run', title: 'x', description: 'x', inputSchema: { type: 'object', properties: {}, additionalProperties: false }, outputSchema: { type: 'object', properties: {}, additionalProperties: false }, effects: { readOnly: true, destructive: false, idempotent: true, openWorld: false, effects: [], risk: 'low', impact: 'x', reversibility: 'yes' }, examples: [{ description: 'x', arguments: {} }], run: async () => ({}) }] };`,
    );
    const r = await runAh(['mcp', 'serve'], { env, input: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[COMMAND_CATALOG_INVALID]');
  });
});
