import { describe, expect, it } from 'vitest';
import { Gate, testRuntime } from '../../test/helpers/runtime.js';
import { Executor } from './executor.js';
import { type Callable, startAdmitted } from './invoke.js';

describe('Executor', () => {
  it('admits up to maxActive at once and fails the next immediately without starting it', async () => {
    const gate = new Gate();
    const { core, prepare } = testRuntime(gate);
    const executor = new Executor(core, 32);
    const running = Array.from({ length: 32 }, (_, i) => executor.start(prepare('test.gated', { tag: String(i) })));
    await new Promise((r) => setImmediate(r));
    expect(gate.entered).toBe(32);
    expect(() => executor.start(prepare('test.gated'))).toThrowError(
      expect.objectContaining({ code: 'EXECUTION_CAPACITY_FULL', retryable: true }),
    );
    expect(gate.entered).toBe(32);
    gate.open();
    const outcomes = await Promise.all(running.map((e) => e.logical));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    await executor.drained();
    expect(executor.active).toBe(0);
  });

  it('completes a cancel at once and keeps the slot of an uncooperative handler until it ends', async () => {
    const gate = new Gate();
    const { core, prepare } = testRuntime(gate);
    const executor = new Executor(core, 1);
    const execution = executor.start(prepare('test.stubborn'));
    execution.cancel();
    const outcome = await execution.logical;
    expect(outcome).toMatchObject({ ok: false, state: 'cancelled' });
    expect(execution.physicallyDone()).toBe(false);
    expect(() => executor.start(prepare('test.gated'))).toThrowError(expect.objectContaining({ code: 'EXECUTION_CAPACITY_FULL' }));
    gate.open();
    await execution.physical;
    expect(executor.active).toBe(0);
    // The late result never overwrites the cancellation.
    expect(await execution.logical).toMatchObject({ state: 'cancelled' });
  });

  it('hands a handler that reads its signal only after a cancel one already aborted with the reason', async () => {
    const gate = new Gate();
    const { core, prepare } = testRuntime(gate);
    const executor = new Executor(core, 1);
    const base = prepare('test.stubborn');
    const seen: AbortSignal[] = [];
    const late: Callable = {
      ...base.descriptor,
      run: async (_input, ctx) => {
        await gate.opened;
        seen.push(ctx.signal);
        return { command: 'test.stubborn' };
      },
    };
    const execution = executor.start({ ...base, descriptor: late });
    execution.cancel();
    expect(await execution.logical).toMatchObject({ ok: false, state: 'cancelled' });
    gate.open();
    await execution.physical;
    expect(seen).toHaveLength(1);
    expect(seen[0]?.aborted).toBe(true);
    expect(seen[0]?.reason).toMatchObject({ code: 'EXECUTION_CANCELLED' });
  });

  it('times out with EXECUTION_TIMEOUT and logs the execution fields', async () => {
    const gate = new Gate();
    const { core, prepare, log } = testRuntime(gate);
    const executor = new Executor(core, 2);
    // The invoke path logs what the executor ran (startAdmitted: the job targets' entry).
    const execution = startAdmitted(core, prepare('test.gated', {}, 20), executor, {
      transport: 'mcp',
      defaults: { cwd: '/', limit: null, timeoutMs: null },
      log: { parameters: { a: 1 }, requestId: 'mcp:n:1', tool: 'ah.test.gated' },
    });
    const outcome = await execution.logical;
    expect(outcome).toMatchObject({ ok: false, state: 'timed_out', error: { code: 'EXECUTION_TIMEOUT' } });
    expect(log.records[0]).toMatchObject({
      command: 'test.gated',
      transport: 'mcp',
      status: 'error',
      request_id: 'mcp:n:1',
      tool: 'ah.test.gated',
      queue_wait_ms: 0,
      timeout_phase: 'execution',
    });
    expect(typeof log.records[0]?.execution_ms).toBe('number');
    gate.open();
  });

  it('rejects output that breaks the schema with OUTPUT_SCHEMA_VIOLATION', async () => {
    const { core, prepare } = testRuntime(new Gate());
    const outcome = await new Executor(core, 1).start(prepare('test.bad-output')).logical;
    expect(outcome).toMatchObject({ ok: false, error: { code: 'OUTPUT_SCHEMA_VIOLATION' } });
  });

  it('refuses new work after close', () => {
    const { core, prepare } = testRuntime(new Gate());
    const executor = new Executor(core, 1);
    executor.close();
    expect(() => executor.start(prepare('test.gated'))).toThrowError(expect.objectContaining({ code: 'EXECUTOR_SHUTTING_DOWN' }));
  });
});
