import { describe, expect, it } from 'vitest';
import { cliOnly, RootObject, Type } from '../catalog/schema.js';
import { Gate, testRuntime } from '../../test/helpers/runtime.js';
import { Executor } from './executor.js';
import { type InvokeOptions, invoke, MAX_ARGUMENT_DEPTH, startAdmitted, validateArguments } from './invoke.js';
import { JobRegistry } from './jobs.js';

const mcp = (extra: Partial<InvokeOptions> = {}): InvokeOptions => ({
  transport: 'mcp',
  defaults: { cwd: '/', limit: null, timeoutMs: null },
  log: { parameters: {}, requestId: 'mcp:n:1', tool: 'ah.test.gated' },
  ...extra,
});

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
}

describe('invoke', () => {
  it('refuses arguments nested past the depth bound with INVALID_ARGUMENT, and logs the call', async () => {
    const { core, log } = testRuntime(new Gate());
    const outcome = await invoke(core, { commandId: 'test.gated', arguments: { tag: nested(5000) } }, mcp());
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', domain: 'test' } });
    expect(outcome.ok ? '' : outcome.error.message).toContain(`${MAX_ARGUMENT_DEPTH} levels`);
    expect(log.records).toHaveLength(1);
    expect(log.records[0]).toMatchObject({ command: 'test.gated', status: 'error', diagnostic: { code: 'INVALID_ARGUMENT' } });
  });

  it('refuses a context.timeout_ms no timer can hold instead of timing out at once', async () => {
    const gate = new Gate();
    const { core } = testRuntime(gate);
    const outcome = await invoke(core, { commandId: 'test.gated', arguments: {}, context: { timeout_ms: 1e15 } }, mcp());
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INVALID_CONTEXT' } });
    expect(gate.entered).toBe(0);
    const longest = invoke(core, { commandId: 'test.gated', arguments: {}, context: { timeout_ms: 2 ** 31 - 1 } }, mcp());
    await new Promise((r) => setTimeout(r, 20));
    gate.open();
    expect(await longest).toMatchObject({ ok: true });
  });

  it('names the domain in an EXECUTION_CAPACITY_FULL diagnostic and its log record', async () => {
    const gate = new Gate();
    const { core, log } = testRuntime(gate);
    const executor = new Executor(core, 1);
    const first = invoke(core, { commandId: 'test.gated', arguments: {} }, mcp({ admission: executor }));
    const second = await invoke(core, { commandId: 'test.gated', arguments: {} }, mcp({ admission: executor }));
    expect(second).toMatchObject({ ok: false, error: { code: 'EXECUTION_CAPACITY_FULL', domain: 'test' } });
    expect(log.records[0]).toMatchObject({ status: 'error', diagnostic: { code: 'EXECUTION_CAPACITY_FULL', domain: 'test' } });
    gate.open();
    expect(await first).toMatchObject({ ok: true });
    // One record per call, the admitted one with the execution fields.
    expect(log.records).toHaveLength(2);
    expect(log.records[1]).toMatchObject({ status: 'success', request_id: 'mcp:n:1', queue_wait_ms: 0 });
  });

  it('gives job-retained errors a domain', async () => {
    const { core, prepare } = testRuntime(new Gate());
    const executor = new Executor(core, 2);
    const jobs = new JobRegistry();
    const { job_id } = jobs.start('ah.test.bad-output', (jobId) =>
      startAdmitted(core, prepare('test.bad-output'), executor, mcp({ log: { parameters: {}, jobId } })),
    );
    await executor.drained();
    await new Promise((r) => setImmediate(r));
    const result = jobs.result(job_id);
    expect(result.response?.error).toMatchObject({ code: 'OUTPUT_SCHEMA_VIOLATION', domain: 'test' });
  });

  it('logs what the descriptor chooses to keep of a successful output', async () => {
    const gate = new Gate();
    gate.open();
    const { core, log, catalog } = testRuntime(gate);
    const descriptor = catalog.snapshot().get('test.gated');
    const withHook = { ...(descriptor as NonNullable<typeof descriptor>), logOutcome: (o: { tag: string }) => ({ tag: o.tag }) };
    const hooked = { ...core, extra: new Map([['test.gated', withHook]]) };
    await invoke(hooked, { commandId: 'test.gated', arguments: { tag: 'x' } }, mcp());
    expect(log.records[0]).toMatchObject({ status: 'success', outcome: { tag: 'x' } });
    await invoke(core, { commandId: 'test.gated', arguments: { tag: 'y' } }, mcp());
    expect(log.records[1]?.outcome).toBeUndefined();
  });
});

describe('validateArguments', () => {
  const schema = RootObject({ n: Type.Integer({ exclusiveMinimum: 0 }), s: Type.Optional(Type.String()) });

  it('maps every numeric bound to INVALID_RANGE and the rest to INVALID_ARGUMENT', () => {
    expect(() => validateArguments({ id: 'demo.run', inputSchema: schema }, { n: 0 })).toThrowError(
      expect.objectContaining({ code: 'INVALID_RANGE', domain: 'demo', exitCodeHint: 1 }),
    );
    expect(() => validateArguments({ id: 'demo.run', inputSchema: schema }, { n: 1, s: 2 })).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('words host options for the CLI and gives job tools exit hint 2', () => {
    expect(() => validateArguments({ id: 'mcp.serve', kind: 'host', inputSchema: schema }, { n: 0 })).toThrowError(
      expect.objectContaining({ code: 'INVALID_RANGE', message: expect.stringMatching(/^invalid options for ah mcp serve: /) }),
    );
    expect(() => validateArguments({ id: 'job.status', kind: 'job', inputSchema: schema }, {})).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', exitCodeHint: 2, domain: 'job' }),
    );
  });

  it('refuses a CLI-only option over MCP with its hint, and takes it from the CLI', () => {
    const secretive = { id: 'demo.run', inputSchema: RootObject({ token: Type.Optional(Type.String(cliOnly('Use credentials.token.'))) }) };
    expect(() => validateArguments(secretive, { token: 't' })).toThrowError(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/'token' .*CLI only\. Use credentials\.token\.$/),
      }),
    );
    expect(validateArguments(secretive, {})).toEqual({});
    expect(validateArguments(secretive, { token: 't' }, 'cli')).toEqual({ token: 't' });
  });

  it('returns a copy with defaults and leaves the input as received', () => {
    const input = { n: 1 };
    const copy = validateArguments(
      { id: 'demo.run', inputSchema: RootObject({ n: Type.Integer(), d: Type.String({ default: 'x' }) }) },
      input,
    );
    expect(copy).toEqual({ n: 1, d: 'x' });
    expect(input).toEqual({ n: 1 });
  });
});
