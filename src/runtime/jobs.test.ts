import { describe, expect, it } from 'vitest';
import { Gate, testRuntime } from '../../test/helpers/runtime.js';
import { Executor } from './executor.js';
import { JobRegistry } from './jobs.js';

function setup(options: { maxRecords?: number; maxActive?: number } = {}) {
  const gate = new Gate();
  const { core, prepare } = testRuntime(gate);
  const executor = new Executor(core, options.maxActive ?? 32);
  let now = 1_000_000;
  const jobs = new JobRegistry({ maxRecords: options.maxRecords ?? 4, ttlMs: 1000, now: () => now });
  const start = (id = 'test.gated') => jobs.start(`ah.${id}`, () => executor.start(prepare(id)));
  return { gate, jobs, executor, start, advance: (ms: number) => (now += ms) };
}

describe('JobRegistry', () => {
  it('formats ids with the boot nonce and a zero-padded sequence', () => {
    const { start, gate } = setup();
    const a = start();
    const b = start();
    expect(a.job_id).toMatch(/^job-[0-9a-f]{16}-0000000000000001$/);
    expect(b.job_id).toMatch(/-0000000000000002$/);
    expect(a).toMatchObject({ tool: 'ah.test.gated', status: 'running', draining: false });
    gate.open();
  });

  it('result never waits and is repeatable', async () => {
    const { start, gate, jobs, executor } = setup();
    const { job_id } = start();
    expect(jobs.result(job_id)).toMatchObject({ ready: false, status: 'running' });
    gate.open();
    await executor.drained();
    const first = jobs.result(job_id);
    expect(first).toMatchObject({ ready: true, status: 'succeeded', response: { success: true, data: { command: 'test.gated' } } });
    expect(jobs.result(job_id)).toEqual(first);
  });

  it('cancel is idempotent and an uncooperative job drains', async () => {
    const { start, gate, jobs } = setup();
    const { job_id } = start('test.stubborn');
    expect(await jobs.cancel(job_id)).toMatchObject({ status: 'cancelled', draining: true });
    expect(await jobs.cancel(job_id)).toMatchObject({ status: 'cancelled', draining: true });
    gate.open();
    await new Promise((r) => setTimeout(r, 5));
    expect(jobs.status(job_id)).toMatchObject({ status: 'cancelled', draining: false });
    expect(jobs.result(job_id).response?.error?.code).toBe('EXECUTION_CANCELLED');
  });

  it('a start that cannot be admitted leaves no record', () => {
    const { jobs, start, gate } = setup({ maxActive: 1 });
    start();
    expect(() => start()).toThrowError(expect.objectContaining({ code: 'EXECUTION_CAPACITY_FULL' }));
    expect(jobs.size).toBe(1);
    gate.open();
  });

  it('evicts the oldest completed record first, never running ones, and fails when all are active', async () => {
    const { jobs, start, gate, executor } = setup({ maxRecords: 2 });
    const first = start();
    const second = start();
    expect(() => start()).toThrowError(expect.objectContaining({ code: 'JOB_CAPACITY_FULL', retryable: true }));
    gate.open();
    await executor.drained();
    start();
    expect(() => jobs.status(first.job_id)).toThrowError(expect.objectContaining({ code: 'JOB_NOT_FOUND' }));
    expect(jobs.status(second.job_id).status).toBe('succeeded');
  });

  it('expires completed records an hour (here: ttl) after physical completion', async () => {
    const { jobs, start, gate, executor, advance } = setup();
    const { job_id } = start();
    gate.open();
    await executor.drained();
    await new Promise((r) => setImmediate(r));
    advance(999);
    expect(jobs.status(job_id).status).toBe('succeeded');
    advance(1);
    expect(() => jobs.status(job_id)).toThrowError(expect.objectContaining({ code: 'JOB_NOT_FOUND' }));
  });
});
