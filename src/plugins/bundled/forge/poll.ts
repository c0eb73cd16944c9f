/**
 * Waiting for a CI run or pipeline: poll, sleep, poll again, never past the wait timeout nor the
 * call's own deadline (the last sleep is shortened to the time left), with a progress line per
 * poll and cancellation that ends the sleep at once.
 */
import type { CommandContext } from '../../../catalog/descriptor.js';

/** Time kept back from the call's deadline so the wait can still answer before it. */
const DEADLINE_MARGIN_MS = 250;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export interface PollResult<T> {
  value: T;
  done: boolean;
  polls: number;
  waited_ms: number;
}

export async function pollUntil<T>(
  ctx: CommandContext,
  options: {
    intervalMs: number;
    waitTimeoutMs: number;
    poll: () => Promise<T>;
    done: (value: T) => boolean;
    describe: (value: T) => string;
  },
): Promise<PollResult<T>> {
  const started = Date.now();
  const end = Math.min(started + options.waitTimeoutMs, ctx.deadline - DEADLINE_MARGIN_MS);
  let polls = 0;
  /** The sleep just taken ran to `end`: the poll after it is the last. */
  let reachedEnd = false;
  for (;;) {
    const value = await options.poll();
    polls += 1;
    const waited = Date.now() - started;
    if (options.done(value)) return { value, done: true, polls, waited_ms: waited };
    ctx.progress(`${options.describe(value)}; waited ${Math.round(waited / 1000)} s`);
    const left = end - Date.now();
    // A timer may fire a millisecond before `end` as Date.now() sees it: that must not buy one
    // more sleep and poll just before the deadline.
    if (left <= 0 || reachedEnd) return { value, done: false, polls, waited_ms: waited };
    reachedEnd = left <= options.intervalMs;
    await sleep(Math.min(options.intervalMs, left), ctx.signal);
  }
}
