/**
 * Milliseconds since the process started, from a monotonic clock: what `performance.now()` gives,
 * without its cost. The global `performance` loads perf_hooks (ten built-in modules, about 1.3 ms)
 * the first time it is touched, and every CLI command timed itself with it; process.uptime() reads
 * libuv's high-resolution clock, which needs nothing loaded.
 */
export function monotonicMs(): number {
  return process.uptime() * 1000;
}
