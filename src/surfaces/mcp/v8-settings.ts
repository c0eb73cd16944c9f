/**
 * V8 settings for the long-running server, set once when it starts. Each is skipped when the user
 * passed the same flag through node options (their setting wins). docs/architecture.md ("Server
 * heap" and "JIT warm-up") has the measurements.
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
 * full collections freed them. 4 KiB reads at one call in flight (raw client, 5,000 calls, two
 * interleaved A/B runs): scavenge time 179 → 132 ms, full collections 7 → 4, mean latency −8 %;
 * calls/s at 1 / 8 / 32 in flight +7–16 % / +2–5 % / +2–4 %.
 *
 * Interrupt budget: how much a function must run before V8 considers optimizing it. A call
 * through ah crosses far more code than a one-tool server (the SDK, the executor, Ajv validators,
 * the file command), and with the default budget (66 KiB of bytecode) that path was still partly
 * unoptimized after hundreds of calls: the 4 KiB read's p50 over the first 1,500 calls was about
 * 1.5× the SDK v1 floor's. A quarter of the budget gets the hot path optimized within the first
 * few hundred calls; optimizing runs on V8's background thread. Only on V8 11.3 (Node 20): from
 * V8 12 (Node 22) the flag is gone (V8 prints an error for it) and Maglev, an early optimizing
 * tier counted in invocations, already shortens the warm-up.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;
export const INTERRUPT_BUDGET = 8192;

/** The V8 flags `mcp serve` sets: the ones above that the user did not set themselves. */
export function serverV8Flags(
  env: Readonly<Record<string, string | undefined>>,
  execArgv: readonly string[],
  v8Version: string = process.versions.v8,
): string[] {
  // The build's code-cache run (scripts/build.mjs) must keep V8's default flags: V8 stamps cached
  // code with a hash of the flags and rejects it in a process whose flags differ.
  if (env.AH_BUILD_CODE_CACHE !== undefined) return [];
  const userSet = (flag: string) => [...execArgv, env.NODE_OPTIONS ?? ''].some((option) => option.includes(flag));
  const flags: string[] = [];
  if (!userSet('heap-growing-percent')) flags.push(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  if (!userSet('allocation-site-pretenuring')) flags.push('--no-allocation-site-pretenuring');
  if (v8Version.startsWith('11.3.') && !userSet('interrupt-budget')) flags.push(`--interrupt-budget=${INTERRUPT_BUDGET}`);
  return flags;
}

export function tuneV8(env: Readonly<Record<string, string | undefined>>, execArgv: readonly string[]): void {
  for (const flag of serverV8Flags(env, execArgv)) {
    try {
      setFlagsFromString(flag);
    } catch {
      // Only an optimisation.
    }
  }
}
