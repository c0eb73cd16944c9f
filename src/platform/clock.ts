/**
 * Milliseconds since the process started, from a monotonic clock: what `performance.now()` gives,
 * without its cost. The global `performance` loads perf_hooks (ten built-in modules, about 1.3 ms)
 * the first time it is touched, and every CLI command timed itself with it; process.uptime() reads
 * libuv's high-resolution clock, which needs nothing loaded.
 */
export function monotonicMs(): number {
  return process.uptime() * 1000;
}

const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/**
 * `date.toISOString()`, built from its UTC fields. V8's first toISOString in a process costs ~0.8 ms
 * (it sets up the date cache, time zone included), and every command's log record needs one;
 * the UTC getters need none of that. Years outside 0–9999 keep toISOString's expanded form.
 */
export function isoTime(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  const ms = date.getUTCMilliseconds();
  const millis = ms < 10 ? `00${ms}` : ms < 100 ? `0${ms}` : `${ms}`;
  const day = `${year < 1000 ? `${year}`.padStart(4, '0') : year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`;
  return `${day}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${millis}Z`;
}
