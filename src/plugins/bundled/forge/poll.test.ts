import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../catalog/descriptor.js';
import { pollUntil } from './poll.js';

function ctx(deadline: number, signal = new AbortController().signal, progress: string[] = []): CommandContext {
  return { deadline, signal, progress: (m: string) => progress.push(m) } as unknown as CommandContext;
}

describe('pollUntil', () => {
  it('polls until done, reporting progress between polls', async () => {
    let n = 0;
    const progress: string[] = [];
    const r = await pollUntil(ctx(Date.now() + 10_000, undefined, progress), {
      intervalMs: 10,
      waitTimeoutMs: 10_000,
      poll: async () => ++n,
      done: (v) => v >= 3,
      describe: (v) => `poll ${v}`,
    });
    expect(r).toMatchObject({ value: 3, done: true, polls: 3 });
    expect(progress).toHaveLength(2);
    expect(progress[0]).toMatch(/^poll 1; waited \d+ s$/);
  });

  it('never sleeps past the call deadline: the last sleep is shortened', async () => {
    const started = Date.now();
    const r = await pollUntil(ctx(started + 600), {
      intervalMs: 60_000,
      waitTimeoutMs: 60_000,
      poll: async () => 0,
      done: () => false,
      describe: () => 'x',
    });
    expect(r.done).toBe(false);
    expect(r.polls).toBe(2);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('ends the sleep at once on cancellation', async () => {
    const controller = new AbortController();
    const waiting = pollUntil(ctx(Date.now() + 60_000, controller.signal), {
      intervalMs: 60_000,
      waitTimeoutMs: 60_000,
      poll: async () => 0,
      done: () => false,
      describe: () => 'x',
    });
    setTimeout(() => controller.abort(new Error('cancelled')), 20);
    await expect(waiting).rejects.toThrow('cancelled');
  });
});
