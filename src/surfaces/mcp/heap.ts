/**
 * Heap sizing for the long-running server. After a full collection V8 lets the old generation
 * grow to a multiple of what survived, up to about 4× when the program allocates fast, as a busy
 * server does: an MCP server with ~17 MB of live data then holds 90+ MB of mostly dead heap
 * between collections. A growth factor of 2 keeps it at a small multiple of the live data (the
 * extra full collections of a heap this small take a few milliseconds each); 1.5 made a call with a
 * big answer (a 10,000-row postgres.query: ~15 MB live until its 4 MB message is written) pay a
 * full collection nearly every time, ~10 % of its CPU time, for no measurable RSS gain in the
 * HTTP bench (growth 1k → 10k calls +4.3 % with either).
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

export function boundHeapGrowth(env: Readonly<Record<string, string | undefined>>, execArgv: readonly string[]): void {
  // A user who tunes the heap through node options keeps their setting.
  if ([...execArgv, env.NODE_OPTIONS ?? ''].some((option) => option.includes('heap-growing-percent'))) return;
  // The build's code-cache run (scripts/build.mjs) must keep V8's default flags: V8 stamps cached
  // code with a hash of the flags and rejects it in a process whose flags differ.
  if (env.AH_BUILD_CODE_CACHE !== undefined) return;
  try {
    setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  } catch {
    // Only an optimisation.
  }
}
