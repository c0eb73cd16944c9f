/**
 * Exiting while a thread-pool thread is stuck in the kernel (an open() of a FIFO with no writer, a
 * dead network mount) never finishes: process.exit joins every libuv pool thread before the
 * process ends. This waits a short grace for pool work to finish and, when some is still
 * pending, ends the process with SIGKILL, the one way out that does not wait for those threads.
 */

/** True while a request served by the libuv pool is pending (by its active-resource name). */
function poolBusy(): boolean {
  return process
    .getActiveResourcesInfo()
    .some((name) => name.startsWith('FSReq') || name === 'GetAddrInfoReqWrap' || name === 'GetNameInfoReqWrap' || name.endsWith('Job'));
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once `pending` (the last log flush) has settled and no pool request is left, within
 * `graceMs`; past it, calls `onStuck` (one synchronous diagnostic line) and kills the process.
 */
export async function settleBeforeExit(pending: Promise<unknown>, graceMs: number, onStuck: () => void): Promise<void> {
  const until = Date.now() + graceMs;
  await Promise.race([pending.catch(() => undefined), delay(graceMs)]);
  while (poolBusy() && Date.now() < until) await delay(20);
  if (!poolBusy()) return;
  onStuck();
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL to oneself is delivered before kill() returns; this only keeps the caller waiting.
  await new Promise<never>(() => undefined);
}
