import { defineCommand } from '../../catalog/descriptor.js';
import { EFFECT_KINDS } from '../../catalog/effects.js';
import { Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { AhError, cancelledError } from '../../errors.js';
import type { RunResult } from '../../platform/exec.js';
import { runWithProgress } from './with-progress.js';

/** Every size has a ceiling: output is held in memory and returned as one JSON string. */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
const MAX_TIMEOUT_SECS = 86_400;
const MAX_TAIL_LINES = 1_000_000;
// Linux's own limits for one argument (MAX_ARG_STRLEN) and, roughly, for the argument count.
const MAX_ARG_LENGTH = 131_072;
const MAX_ARGS = 65_536;

const input = RootObject({
  command: Type.Array(Type.String({ minLength: 1, maxLength: MAX_ARG_LENGTH }), {
    minItems: 1,
    maxItems: MAX_ARGS,
    description: 'Program and arguments (no shell)',
  }),
  timeout_secs: Type.Integer({
    minimum: 1,
    maximum: MAX_TIMEOUT_SECS,
    default: 600,
    description: 'Kill the process tree after this many seconds',
  }),
  max_output_bytes: Type.Integer({
    minimum: 1,
    maximum: MAX_OUTPUT_BYTES,
    default: 65536,
    description: 'Bytes kept per stream (stdout, stderr)',
  }),
  tail_lines: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_TAIL_LINES, description: 'Keep only the last N lines of each stream' }),
  ),
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

/** Lossy UTF-8 only after capture (invalid bytes become U+FFFD); then the last N lines if asked. */
function decode(bytes: Buffer, truncated: boolean, tailLines: number | undefined): { text: string; truncated: boolean } {
  let text = bytes.toString('utf8');
  if (tailLines === undefined) return { text, truncated };
  const lines = text.split('\n');
  const trailing = lines[lines.length - 1] === '' ? lines.pop() : undefined;
  if (lines.length > tailLines) {
    truncated = true;
    lines.splice(0, lines.length - tailLines);
  }
  text = lines.join('\n') + (trailing !== undefined && lines.length > 0 ? '\n' : '');
  return { text, truncated };
}

function startError(result: Exclude<RunResult, { kind: 'exited' }>, signal: AbortSignal): AhError {
  if (result.kind === 'cancelled') return cancelledError(signal.reason);
  const failed = (message: string, cause: string, hint?: string) =>
    new AhError({ code: 'COMMAND_EXECUTION_FAILED', message, cause, hint, operation: 'process.execute' });
  const { program } = result;
  if (result.kind === 'missing') {
    const hint = `Check that ${program} is installed and on PATH, or pass an absolute path.`;
    return failed(`program not found: ${program}`, `spawn ${program} ENOENT`, hint);
  }
  if (result.errno === 'EACCES')
    return failed(`permission denied running ${program}`, result.message, 'Check that the file is executable.');
  return failed(`could not start ${program}`, result.message);
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
    const [program, ...rest] = args.command as [string, ...string[]];
    const { result } = await runWithProgress(ctx, program, rest, {
      timeoutSecs: args.timeout_secs,
      prefix: '',
      maxBytes: args.max_output_bytes,
      keep: args.tail_lines === undefined ? 'head' : 'tail',
    });
    if (result.kind !== 'exited') throw startError(result, ctx.signal);
    const stdout = decode(result.stdout, result.stdoutTruncated, args.tail_lines);
    const stderr = decode(result.stderr, result.stderrTruncated, args.tail_lines);
    return {
      command: 'run.check',
      argv: [...args.command],
      success: result.code === 0 && !result.timedOut && !result.cancelled,
      exit_code: result.code,
      timed_out: result.timedOut,
      duration_ms: result.durationMs,
      stdout: stdout.text,
      stderr: stderr.text,
      stdout_truncated: stdout.truncated,
      stderr_truncated: stderr.truncated,
    };
  },
});
