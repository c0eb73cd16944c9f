/**
 * V8 heap settings for the long-running server, set once when it starts.
 *
 * Growth: after a full collection V8 lets the old generation grow to a multiple of what survived,
 * up to about 4× when the program allocates fast, as a busy server does: an MCP server with ~17 MB
 * of live data then holds 90+ MB of mostly dead heap between collections. A growth factor of 2
 * keeps it at a small multiple of the live data (the extra full collections of a heap this small
 * take a few milliseconds each); 1.5 made a call with a big answer (a 10,000-row postgres.query:
 * ~15 MB live until its 4 MB message is written) pay a full collection nearly every time, ~10 %
 * of its CPU time, for no measurable RSS gain in the HTTP bench (growth 1k → 10k calls +4.3 %
 * with either).
 *
 * Pretenuring off: V8 moves an allocation site's objects straight into the old generation once
 * many of them were seen to survive. In this server that decision goes wrong: many per-call
 * objects of the SDK and of ah (parsed messages, results) went to the old generation, and only
 * full collections freed them (see docs/architecture.md, "Server heap"). 4 KiB reads at one call in flight (raw client,
 * 5,000 calls, two interleaved A/B runs): scavenge time 179 → 132 ms, full collections 7 → 4,
 * mean latency −8 %; calls/s at 1 / 8 / 32 in flight +7–16 % / +2–5 % / +2–4 %. A 10,000-row
 * postgres.query did not change beyond the noise.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

export function tuneHeap(env: Readonly<Record<string, string | undefined>>, execArgv: readonly string[]): void {
  // The build's code-cache run (scripts/build.mjs) must keep V8's default flags: V8 stamps cached
  // code with a hash of the flags and rejects it in a process whose flags differ.
  if (env.AH_BUILD_CODE_CACHE !== undefined) return;
  // A user who tunes the heap through node options keeps their setting.
  const userSet = (flag: string) => [...execArgv, env.NODE_OPTIONS ?? ''].some((option) => option.includes(flag));
  try {
    if (!userSet('heap-growing-percent')) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    if (!userSet('allocation-site-pretenuring')) setFlagsFromString('--no-allocation-site-pretenuring');
  } catch {
    // Only an optimisation.
  }
}
