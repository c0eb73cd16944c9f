import { describe, expect, it } from 'vitest';
import { Gate, testRuntime } from '../../../test/helpers/runtime.js';
import { descriptorProblems } from '../../catalog/registry.js';
import { Executor } from '../../runtime/executor.js';
import type { Callable } from '../../runtime/invoke.js';
import { jobCommands } from '../../runtime/job-commands.js';
import { JobRegistry } from '../../runtime/jobs.js';
import { callTool, type McpCore, UnknownToolError } from './call.js';
import { toolList } from './tool-definition.js';

function server(gate = new Gate()) {
  const { catalog, core: base, log } = testRuntime(gate);
  const extra = new Map<string, Callable>();
  const runtime = { ...base, extra };
  const executor = new Executor(runtime, 4);
  const jobs = new JobRegistry();
  const defaults = { cwd: '/', limit: null, timeoutMs: 60_000 };
  const resolveTool = (name: string) => toolList(catalog.snapshot()).byName.get(name);
  for (const c of jobCommands({ runtime, executor, jobs, transport: 'stdio', defaults, resolveTool })) extra.set(c.id, c);
  const core: McpCore = { catalog, runtime, executor, jobs, transport: 'stdio', defaults };
  const call = (name: string, args: Record<string, unknown>, requestId = 'mcp:n:1') =>
    callTool(core, name, args, { requestId, signal: new AbortController().signal });
  return { core, log, call, gate, executor };
}

describe('callTool', () => {
  it('validates and logs job tools through the invoke path, and logs their targets once', async () => {
    const { call, log, gate, executor } = server();
    const bad = await call('ah.job.status', { job_id: '' });
    expect(bad._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'INVALID_ARGUMENT', exit_code_hint: 2, domain: 'job' });
    expect(log.records[0]).toMatchObject({ command: 'job.status', tool: 'ah.job.status', status: 'error', request_id: 'mcp:n:1' });
    const withContext = await call('ah.job.status', { job_id: 'j', context: { cwd: '/' } });
    expect(withContext._meta?.['dev.aihelper/diagnostic']).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining("'context'"),
    });
    log.records.splice(0);
    const started = await call('ah.job.start', { tool: 'ah.test.gated', arguments: { tag: 't' } }, 'mcp:n:2');
    const jobId = (started.structuredContent as { job_id: string }).job_id;
    expect(log.records[0]).toMatchObject({ command: 'job.start', status: 'success', request_id: 'mcp:n:2' });
    gate.open();
    await executor.drained();
    await new Promise((r) => setImmediate(r));
    expect(log.records[1]).toMatchObject({ command: 'test.gated', tool: 'ah.test.gated', job_id: jobId, request_id: 'mcp:n:2' });
    const result = await call('ah.job.result', { job_id: jobId }, 'mcp:n:3');
    expect(result.structuredContent).toMatchObject({ ready: true, response: { success: true } });
    expect(log.records).toHaveLength(3);
  });

  it('logs an unknown tool before answering with a protocol error', async () => {
    const { call, log } = server();
    await expect(call('ah.nope.nothing', {})).rejects.toBeInstanceOf(UnknownToolError);
    await expect(call('test.gated', {})).rejects.toBeInstanceOf(UnknownToolError);
    expect(log.records).toHaveLength(2);
    expect(log.records[0]).toMatchObject({
      command: 'ah.nope.nothing',
      tool: 'ah.nope.nothing',
      status: 'error',
      diagnostic: { code: 'TYPED_COMMAND_NOT_FOUND', domain: 'mcp' },
    });
  });

  it('publishes job tools whose effects pass the same checks as every command', () => {
    for (const command of jobCommands()) expect(descriptorProblems(command, { verifyExamples: false })).toEqual([]);
    const { core } = server();
    const start = toolList(core.catalog.snapshot()).tools.find((t) => t.name === 'ah.job.start');
    expect(start?._meta['dev.aihelper/risk']).toMatchObject({ level: 'critical', effects: ['process_state'] });
    expect(Object.keys((start?.inputSchema.properties ?? {}) as object)).toEqual(['tool', 'arguments']);
  });
});
