/** Runs git for the git commands: fixed parse-friendly settings, typed failures. */
import type { CommandContext } from '../../catalog/descriptor.js';
import { AhError } from '../../errors.js';
import { execCapture } from '../../platform/exec.js';

export interface GitOutput {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export function missingGit(): AhError {
  return new AhError({
    code: 'DEPENDENCY_MISSING',
    message: 'git is not installed or not on PATH',
    hint: 'Install git (e.g. apt-get install git) and make sure it is on PATH.',
    domain: 'git',
    operation: 'dependency.preflight',
  });
}

/** Runs `git <args>` in ctx.cwd; returns the raw result (non-zero exits are not thrown). */
export async function git(ctx: CommandContext, args: readonly string[]): Promise<GitOutput> {
  const env = { ...ctx.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat' };
  const result = await execCapture('git', ['-c', 'core.quotepath=off', '-c', 'color.ui=false', ...args], {
    cwd: ctx.cwd,
    env,
    signal: ctx.signal,
  });
  if (result.kind === 'missing') throw missingGit();
  return { code: result.code, stdout: result.stdout, stderr: result.stderr.toString('utf8').trim() };
}

export function notARepo(stderr: string): boolean {
  return /not a git repository/i.test(stderr);
}

export function gitFailed(args: readonly string[], out: GitOutput, hint?: string): AhError {
  return new AhError({
    code: 'COMMAND_FAILED',
    message: `git ${args[0] ?? ''} failed (exit ${out.code ?? 'signal'})`,
    cause: out.stderr || 'no output',
    hint,
    domain: 'git',
    operation: 'process.execute',
  });
}

/** Runs git and returns stdout; `null` when cwd is not inside a repository. Throws other failures. */
export async function gitOrNull(ctx: CommandContext, args: readonly string[], hint?: string): Promise<Buffer | null> {
  const out = await git(ctx, args);
  if (out.code === 0) return out.stdout;
  if (notARepo(out.stderr)) return null;
  throw gitFailed(args, out, hint);
}

/** Splits NUL-separated output into UTF-8 fields (bytes first, so names with newlines survive). */
export function nulFields(bytes: Buffer): string[] {
  const fields: string[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    if (bytes[i] === 0) {
      fields.push(bytes.subarray(start, i).toString('utf8'));
      start = i + 1;
    }
  }
  if (start < bytes.length) fields.push(bytes.subarray(start).toString('utf8'));
  return fields;
}

export const READ_EFFECTS = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  effects: ['filesystem_read', 'process_spawn'] as ('filesystem_read' | 'process_spawn')[],
  risk: 'low' as const,
  impact: 'Runs read-only git commands in the repository; changes nothing.',
  reversibility: 'yes' as const,
};
