import { defineCommand } from '../../catalog/descriptor.js';
import { EFFECT_KINDS } from '../../catalog/effects.js';
import { Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { spawnCaptured } from '../../platform/spawn.js';

const input = RootObject({
  command: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'Program and arguments (no shell)' }),
  timeout_secs: Type.Integer({ minimum: 1, default: 600, description: 'Kill the process tree after this many seconds' }),
  max_output_bytes: Type.Integer({ minimum: 1, default: 65536, description: 'Bytes kept per stream (stdout, stderr)' }),
  tail_lines: Type.Optional(Type.Integer({ minimum: 0, description: 'Keep only the last N lines of each stream' })),
});
const output = RootObject({
  command: Type.Literal('run.check'),
  argv: Type.Array(Type.String()),
  success: Type.Boolean(),
  exit_code: Nullable(Type.Integer()),
  timed_out: Type.Boolean(),
  duration_ms: Type.Integer({ minimum: 0 }),
  stdout: Type.String(),
  stderr: Type.String(),
  stdout_truncated: Type.Boolean(),
  stderr_truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

function render(o: Output): string {
  const status = o.timed_out
    ? `timed out after ${o.duration_ms} ms`
    : o.exit_code === null
      ? `killed after ${o.duration_ms} ms`
      : `exit ${o.exit_code} in ${o.duration_ms} ms`;
  const parts = [`${o.success ? 'ok' : 'FAILED'}: ${o.argv.join(' ')} (${status})`];
  if (o.stdout !== '') parts.push(`--- stdout${o.stdout_truncated ? ' (truncated)' : ''}`, o.stdout.replace(/\n$/, ''));
  if (o.stderr !== '') parts.push(`--- stderr${o.stderr_truncated ? ' (truncated)' : ''}`, o.stderr.replace(/\n$/, ''));
  return parts.join('\n');
}

export const check = defineCommand({
  id: 'run.check',
  title: 'Run a program',
  description:
    'Run a program with arguments (no shell, stdin closed) in the working directory and capture its exit code and output. A failing program is a result (success: false), not an error. On timeout or cancel the whole process tree is killed.',
  inputSchema: input,
  outputSchema: output,
  effects: {
    readOnly: false,
    destructive: true,
    idempotent: false,
    openWorld: true,
    effects: [...EFFECT_KINDS],
    risk: 'critical',
    impact: 'Runs an arbitrary program as the current user: it can change or delete files, use the network and start other programs.',
    reversibility: 'unknown',
  },
  examples: [
    { description: 'Run the test suite', arguments: { command: ['npm', 'test'], timeout_secs: 900 } },
    { description: 'Show the last 40 lines of a build', arguments: { command: ['make'], tail_lines: 40 } },
  ],
  cli: { rest: 'command' },
  render,
  logOutcome: (o: Output) => ({ success: o.success, timed_out: o.timed_out, exit_code: o.exit_code }),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const remaining = ctx.deadline - Date.now();
    const timeoutMs = Math.min(args.timeout_secs * 1000, Number.isFinite(remaining) ? Math.max(0, remaining) : Number.POSITIVE_INFINITY);
    const started = Date.now();
    let bytes = 0;
    // Refreshed twice a second; the surfaces decide how often to pass it on (MCP: once a second).
    const report = () => ctx.progress(`running for ${Math.round((Date.now() - started) / 1000)} s, ${bytes} bytes of output`);
    report();
    const ticker = setInterval(report, 500);
    ticker.unref();
    try {
      const result = await spawnCaptured(args.command, {
        cwd: ctx.cwd,
        env: ctx.env,
        signal: ctx.signal,
        timeoutMs,
        maxOutputBytes: args.max_output_bytes,
        ...(args.tail_lines !== undefined ? { tailLines: args.tail_lines } : {}),
        onOutput: (total) => {
          bytes = total;
        },
      });
      return {
        command: 'run.check',
        argv: [...args.command],
        success: result.exitCode === 0 && !result.timedOut && !result.cancelled,
        exit_code: result.exitCode,
        timed_out: result.timedOut,
        duration_ms: result.durationMs,
        stdout: result.stdout,
        stderr: result.stderr,
        stdout_truncated: result.stdoutTruncated,
        stderr_truncated: result.stderrTruncated,
      };
    } finally {
      clearInterval(ticker);
    }
  },
});
