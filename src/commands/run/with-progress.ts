/** Starting a program for run.check and task.run: one deadline, one progress ticker. */
import type { CommandContext } from '../../catalog/descriptor.js';
import { type RunOptions, type RunResult, runProcess } from '../../platform/exec.js';

/**
 * Runs `program args` in the call's cwd and environment, stopped by the call's signal and by
 * whichever comes first of `timeoutSecs` and the call's deadline. Progress (`<prefix>running for N
 * s, B bytes of output`) is refreshed twice a second; the surfaces decide how often to pass it on
 * (MCP: once a second). Returns the result and the timeout that applied.
 */
export async function runWithProgress(
  ctx: CommandContext,
  program: string,
  args: readonly string[],
  options: { timeoutSecs: number; prefix: string } & Pick<RunOptions, 'maxBytes' | 'keep'>,
): Promise<{ result: RunResult; timeoutMs: number }> {
  const remaining = ctx.deadline - Date.now();
  const timeoutMs = Math.min(options.timeoutSecs * 1000, Number.isFinite(remaining) ? Math.max(0, remaining) : Number.POSITIVE_INFINITY);
  const started = Date.now();
  let bytes = 0;
  const report = () =>
    ctx.progress(`${options.prefix}running for ${Math.round((Date.now() - started) / 1000)} s, ${bytes} bytes of output`);
  report();
  const ticker = setInterval(report, 500);
  ticker.unref();
  try {
    const result = await runProcess(program, args, {
      cwd: ctx.cwd,
      env: ctx.env,
      signal: ctx.signal,
      timeoutMs,
      maxBytes: options.maxBytes,
      keep: options.keep,
      onOutput: (total) => {
        bytes = total;
      },
    });
    return { result, timeoutMs };
  } finally {
    clearInterval(ticker);
  }
}
