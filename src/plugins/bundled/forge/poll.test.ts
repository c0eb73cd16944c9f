import { describe, expect, it, vi } from 'vitest';
import type { CommandContext } from '../../../catalog/descriptor.js';
import { pollUntil } from './poll.js';

function ctx(deadline: number, signal = new AbortController().signal, progress: string[] = []): CommandContext {
  return { deadline, signal, progress: (m: string) => progress.push(m) } as unknown as CommandContext;
}

/** A minute between polls of a value that never gets done: only the deadline or a cancel ends it. */
const NEVER_DONE = {
  intervalMs: 60_000,
  waitTimeoutMs: 60_000,
  poll: async () => 0,
  done: () => false,
  describe: () => 'x',
};

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
    const r = await pollUntil(ctx(started + 600), NEVER_DONE);
    expect(r.done).toBe(false);
    expect(r.polls).toBe(2);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('polls once after the shortened last sleep, even when its timer fires a millisecond early', async () => {
    // The clock pollUntil reads: the start, then (after the 10 ms sleep to `end`) 1 ms before `end`.
    const t0 = 1_000_000;
    const readings = [t0, t0, t0, t0 + 9, t0 + 9];
    const now = vi.spyOn(Date, 'now').mockImplementation(() => readings.shift() ?? t0 + 20);
    try {
      const r = await pollUntil(ctx(t0 + 260), NEVER_DONE);
      expect(r).toMatchObject({ done: false, polls: 2, waited_ms: 9 });
    } finally {
      now.mockRestore();
    }
  });

  it('ends the sleep at once on cancellation', async () => {
    const controller = new AbortController();
    const waiting = pollUntil(ctx(Date.now() + 60_000, controller.signal), NEVER_DONE);
    setTimeout(() => controller.abort(new Error('cancelled')), 20);
    await expect(waiting).rejects.toThrow('cancelled');
  });
});
