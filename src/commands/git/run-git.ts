/**
 * Runs git for the git commands with fixed, parse-friendly settings and maps the ways it can fail
 * to stable codes. A non-zero exit is returned, not thrown: each command decides what it means.
 */
import type { CommandContext } from '../../catalog/descriptor.js';
import type { Effects } from '../../catalog/effects.js';
import { AhError } from '../../errors.js';
import { execCapture } from '../../platform/exec.js';

export interface GitOutput {
  code: number | null;
  stdout: Buffer;
  /** Decoded and trimmed. */
  stderr: string;
  stdoutTruncated: boolean;
}

export interface GitOptions {
  /** The call changes the repository: skip `--no-optional-locks`, which only suits readers. */
  writes?: boolean;
  /** Byte cap on stdout. */
  maxBytes?: number;
}

export function missingGit(cause?: string): AhError {
  return new AhError({
    code: 'DEPENDENCY_MISSING',
    message: 'git is not installed or not on PATH',
    cause,
    hint: 'Install git and make sure it is on PATH.',
    domain: 'git',
    operation: 'dependency.preflight',
  });
}

function cancelled(ctx: CommandContext): AhError {
  const reason = ctx.signal.reason as unknown;
  if (reason instanceof AhError) return reason;
  return new AhError({ code: 'EXECUTION_CANCELLED', message: 'the call was cancelled', operation: 'execution' });
}

/** Runs `git <args>` in ctx.cwd; returns the raw result (non-zero exits are not thrown). */
export async function git(ctx: CommandContext, args: readonly string[], options: GitOptions = {}): Promise<GitOutput> {
  // LC_ALL=C keeps git's messages in English so the few we recognise stay recognisable; no prompt
  // may ever wait for a terminal; paths come back unquoted (bytes as-is), colours off.
  const env = { ...ctx.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_PAGER: 'cat', PAGER: 'cat' };
  const global = ['-c', 'core.quotepath=off', '-c', 'color.ui=false', ...(options.writes ? [] : ['--no-optional-locks'])];
  const execOptions = { cwd: ctx.cwd, env, signal: ctx.signal, ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }) };
  const result = await execCapture('git', [...global, ...args], execOptions);
  switch (result.kind) {
    case 'missing':
      throw missingGit(`'git' was not found on PATH (${ctx.env.PATH ?? 'PATH is unset'})`);
    case 'aborted':
      throw cancelled(ctx);
    case 'failed':
      throw new AhError({
        code: 'COMMAND_EXECUTION_FAILED',
        message: 'could not start git',
        cause: result.message,
        domain: 'git',
        operation: 'process.execute',
      });
    case 'exited':
      return {
        code: result.code,
        stdout: result.stdout,
        stderr: result.stderr.toString('utf8').trim(),
        stdoutTruncated: result.stdoutTruncated,
      };
  }
}

/** True when git refused because cwd is not inside a work tree (outside a repo, or in .git). */
export function notARepo(stderr: string): boolean {
  return /not a git repository|must be run in a work tree/i.test(stderr);
}

/** A non-zero git exit as COMMAND_FAILED, git's own words as the cause. */
export function gitFailed(args: readonly string[], out: GitOutput, hint?: string): AhError {
  return new AhError({
    code: 'COMMAND_FAILED',
    message: `git ${args[0] ?? ''} failed (exit ${out.code ?? 'by signal'})`,
    cause: out.stderr || 'git printed nothing on stderr',
    hint: hint ?? hintFor(out.stderr),
    domain: 'git',
    operation: 'process.execute',
  });
}

function hintFor(stderr: string): string | undefined {
  if (/dubious ownership/i.test(stderr)) return "Mark the repository as trusted with 'git config --global --add safe.directory <path>'.";
  if (/index file (corrupt|smaller than expected)|bad index file|index uses .* extension/i.test(stderr)) {
    return "The index (.git/index) is damaged; 'rm .git/index && git reset' rebuilds it from HEAD.";
  }
  if (/please tell me who you are|empty ident|unable to auto-detect email/i.test(stderr)) {
    return 'Set user.name and user.email in git config (or GIT_COMMITTER_NAME and GIT_COMMITTER_EMAIL).';
  }
  return undefined;
}

/** Runs git and returns stdout; `null` when cwd is not inside a repository. Throws other failures. */
export async function gitOrNull(ctx: CommandContext, args: readonly string[], options: GitOptions = {}): Promise<GitOutput | null> {
  const out = await git(ctx, args, options);
  if (out.code === 0) return out;
  if (notARepo(out.stderr)) return null;
  throw gitFailed(args, out);
}

/** Splits NUL-terminated output into UTF-8 fields (split as bytes first, so names with newlines survive). */
export function nulFields(bytes: Buffer): string[] {
  const fields: string[] = [];
  let start = 0;
  for (let end = bytes.indexOf(0, start); end !== -1; end = bytes.indexOf(0, start)) {
    fields.push(bytes.subarray(start, end).toString('utf8'));
    start = end + 1;
  }
  if (start < bytes.length) fields.push(bytes.subarray(start).toString('utf8'));
  return fields;
}

export const READ_EFFECTS: Effects = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  effects: ['filesystem_read', 'process_spawn'],
  risk: 'low',
  impact: 'Runs read-only git commands in the repository; changes nothing.',
  reversibility: 'yes',
};
