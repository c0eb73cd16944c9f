import { constants } from 'node:os';
import { defineCommand } from '../../catalog/descriptor.js';
import { EFFECT_KINDS } from '../../catalog/effects.js';
import { RootObject, type Static, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { runWithProgress } from '../run/with-progress.js';
import { readStore, storePath, taskNotFound } from './store.js';

const input = RootObject({
  name: Type.String({ minLength: 1, maxLength: 128, description: 'Name of a saved task' }),
  timeout_secs: Type.Integer({
    minimum: 1,
    maximum: 86400,
    default: 600,
    description: 'Kill the whole process tree after this many seconds (TASK_TIMEOUT)',
  }),
  max_output_bytes: Type.Integer({ minimum: 1, maximum: 67108864, default: 65536, description: 'Bytes kept per stream (stdout, stderr)' }),
});
const output = RootObject({
  command: Type.Literal('task.run'),
  name: Type.String(),
  task_command: Type.String(),
  success: Type.Boolean(),
  exit_code: Type.Integer(),
  stdout: Type.String(),
  stderr: Type.String(),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

/** The shell a task line runs in: a login sh on Unix, PowerShell without profile on Windows. */
function shellArgv(line: string): string[] {
  return process.platform === 'win32' ? ['powershell', '-NoProfile', '-NonInteractive', '-Command', line] : ['sh', '-lc', line];
}

/** The first `limit` lines of a stream; whether any were cut. */
function firstLines(text: string, limit: number | null): { text: string; cut: boolean } {
  if (limit === null) return { text, cut: false };
  let end = -1;
  for (let i = 0; i < limit; i += 1) {
    end = text.indexOf('\n', end + 1);
    if (end === -1) return { text, cut: false };
  }
  return end + 1 >= text.length ? { text, cut: false } : { text: text.slice(0, end + 1), cut: true };
}

function render(o: Output): string {
  const parts = [`${o.success ? 'ok' : 'FAILED'}: task ${o.name} (exit ${o.exit_code})${o.truncated ? ' [output truncated]' : ''}`];
  if (o.stdout !== '') parts.push('--- stdout', o.stdout.replace(/\n$/, ''));
  if (o.stderr !== '') parts.push('--- stderr', o.stderr.replace(/\n$/, ''));
  return parts.join('\n');
}

export const run = defineCommand({
  id: 'task.run',
  title: 'Run a saved task',
  description:
    'Run a task saved with task save through the shell (sh -lc; PowerShell -NoProfile on Windows) in the working directory, stdin closed, and return its exit code and output (each stream capped at max_output_bytes; the limit keeps the first N lines of each). A failing command is a result (success false). On timeout the whole process tree is killed and the call fails with TASK_TIMEOUT; an unknown name fails with TASK_NOT_FOUND.',
  inputSchema: input,
  outputSchema: output,
  // The log keeps the outcome, not the output (which may hold anything the task printed).
  logOutcome: (o: Output) => ({ success: o.success, exit_code: o.exit_code }),
  effects: {
    readOnly: false,
    destructive: true,
    idempotent: false,
    openWorld: true,
    effects: [...EFFECT_KINDS],
    risk: 'critical',
    impact: 'Runs a saved shell command line as the current user: it can change or delete files, use the network and start other programs.',
    reversibility: 'unknown',
  },
  examples: [
    { description: 'Run the saved test task', arguments: { name: 'test', timeout_secs: 900 } },
    { description: 'Run a build, keeping 16 KiB of each stream', arguments: { name: 'build', max_output_bytes: 16384 } },
  ],
  cli: { positionals: ['name'] },
  render,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const path = storePath(ctx.cwd);
    const task = (await readStore(path)).tasks.find((t) => t.name === args.name);
    if (task === undefined) throw taskNotFound(args.name, path);
    const [program, ...programArgs] = shellArgv(task.command) as [string, ...string[]];
    const { result, timeoutMs } = await runWithProgress(ctx, program, programArgs, {
      timeoutSecs: args.timeout_secs,
      prefix: `task ${task.name}: `,
      maxBytes: args.max_output_bytes,
    });
    if (result.kind === 'cancelled')
      throw ctx.signal.reason ?? new AhError({ code: 'EXECUTION_CANCELLED', message: 'the call was cancelled' });
    if (result.kind !== 'exited') {
      throw new AhError({
        code: 'COMMAND_EXECUTION_FAILED',
        message: `could not start the shell for task '${task.name}'`,
        cause: result.kind === 'missing' ? `${result.program} was not found on PATH` : result.message,
        domain: 'task',
        operation: 'process.execute',
      });
    }
    if (result.cancelled) throw ctx.signal.reason ?? new AhError({ code: 'EXECUTION_CANCELLED', message: 'the call was cancelled' });
    if (result.timedOut) {
      throw new AhError({
        code: 'TASK_TIMEOUT',
        message: `task '${task.name}' timed out after ${Math.round(timeoutMs / 1000)} s`,
        cause: `the process tree of '${task.command}' was killed after ${result.durationMs} ms`,
        hint: 'Raise --timeout-secs (timeout_secs), or check the task for a prompt or a server that never exits.',
        domain: 'task',
        operation: 'process.execute',
      });
    }
    const stdout = firstLines(result.stdout.toString('utf8'), ctx.limit);
    const stderr = firstLines(result.stderr.toString('utf8'), ctx.limit);
    // A signal death is reported the way a shell reports it: 128 + the signal number.
    const exitCode = result.code ?? 128 + ((result.signal && (constants.signals as Record<string, number>)[result.signal]) || 0);
    return {
      command: 'task.run',
      name: task.name,
      task_command: task.command,
      success: exitCode === 0,
      exit_code: exitCode,
      stdout: stdout.text,
      stderr: stderr.text,
      truncated: result.stdoutTruncated || result.stderrTruncated || stdout.cut || stderr.cut,
    };
  },
});
