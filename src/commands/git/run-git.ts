/**
 * Runs git for the git commands with fixed, parse-friendly settings and maps the ways it can fail
 * to stable codes. A non-zero exit is returned, not thrown: each command decides what it means.
 */
import type { CommandContext } from '../../catalog/descriptor.js';
import type { Effects } from '../../catalog/effects.js';
import { AhError, cancelledError } from '../../errors.js';
import { runProcess } from '../../platform/exec.js';

interface GitOutput {
  code: number | null;
  stdout: Buffer;
  /** Decoded and trimmed. */
  stderr: string;
  stdoutTruncated: boolean;
}

function missingGit(cause?: string): AhError {
  return new AhError({
    code: 'DEPENDENCY_MISSING',
    message: 'git is not installed or not on PATH',
    cause,
    hint: 'Install git and make sure it is on PATH.',
    domain: 'git',
    operation: 'dependency.preflight',
  });
}

/**
 * Settings that keep a repository's own config (.git/config, its includes, hooks, attributes) from
 * executing anything: every key git would run as a program is pinned to a harmless value on the
 * command line, which outranks every config file. Pagers never start (stdout is a pipe anyway).
 */
const PROTECTING_CONFIG: readonly [string, string][] = [
  ['core.fsmonitor', 'false'],
  ['core.pager', 'cat'],
  ['diff.external', ''],
  // Hooks (reference-transaction fires on `git tag`, post-index-change on index writes): a path
  // that can never be a directory, so no hook is ever found.
  ['core.hooksPath', '/dev/null'],
  ['core.sshCommand', 'ssh'],
  ['core.gitProxy', ''],
  ['core.askPass', ''],
  // An empty entry resets the helper list: no credential helper runs.
  ['credential.helper', ''],
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  ['tag.gpgSign', 'false'],
  ['log.showSignature', 'false'],
  ['gpg.program', 'gpg'],
  ['gpg.openpgp.program', 'gpg'],
  ['gpg.x509.program', 'gpgsm'],
  ['gpg.ssh.program', 'ssh-keygen'],
  ['submodule.recurse', 'false'],
];

/** Subcommands that produce diffs: no external diff drivers and no textconv filters. */
const DIFF_FLAGS: Readonly<Record<string, readonly string[]>> = {
  diff: ['--no-ext-diff', '--no-textconv'],
  log: ['--no-ext-diff', '--no-textconv'],
  show: ['--no-ext-diff', '--no-textconv'],
  blame: ['--no-textconv'],
};

/** Drivers a repository can define whose values are commands: filters, diff and merge drivers. */
const DRIVER_KEY = /^(filter|diff|merge)\..+\.(clean|smudge|process|textconv|command|driver)$/i;

interface GitOptions {
  /** The call changes the repository: skip `--no-optional-locks`, which only suits readers. */
  writes?: boolean;
  /** Byte cap on stdout. */
  maxBytes?: number;
}

/**
 * Filter, diff and merge drivers are named by the repository (.gitattributes) and defined in its
 * config, so they cannot be pinned by a fixed list: read which ones the repository's own config
 * (scope local or worktree, includes resolved) defines, and override each with the value a
 * trusted scope (global, system, command line) gives it, or with nothing. Reading config runs
 * nothing. One read per call context.
 */
const driverOverrides = new WeakMap<CommandContext, Promise<[string, string][]>>();

function repositoryDrivers(ctx: CommandContext, env: Record<string, string | undefined>): Promise<[string, string][]> {
  let pending = driverOverrides.get(ctx);
  if (!pending) {
    pending = (async () => {
      const read = (args: string[]) =>
        runProcess('git', ['config', '--null', ...args, '--list'], { cwd: ctx.cwd, env, signal: ctx.signal, maxBytes: 4 * 1024 * 1024 });
      let result = await read(['--show-scope']);
      let scoped = true;
      if (result.kind === 'exited' && result.code !== 0 && /show-scope|unknown option|usage:/i.test(result.stderr.toString('utf8'))) {
        // git before 2.26 has no --show-scope: take the repository's own file alone (no fallback value).
        result = await read(['--local']);
        scoped = false;
      }
      if (result.kind !== 'exited' || result.code !== 0) return [];
      const trusted = new Map<string, string>();
      const hostile = new Set<string>();
      const fields = nulFields(result.stdout);
      for (let i = 0; i < fields.length; i += scoped ? 2 : 1) {
        const scope = scoped ? (fields[i] as string) : 'local';
        const entry = (scoped ? fields[i + 1] : fields[i]) ?? '';
        const cut = entry.indexOf('\n');
        const key = (cut < 0 ? entry : entry.slice(0, cut)).toLowerCase();
        if (!DRIVER_KEY.test(key)) continue;
        if (scope === 'local' || scope === 'worktree') hostile.add(key);
        else trusted.set(key, cut < 0 ? '' : entry.slice(cut + 1));
      }
      return [...hostile].map((key): [string, string] => [key, trusted.get(key) ?? '']);
    })();
    driverOverrides.set(ctx, pending);
  }
  return pending;
}

/**
 * Config passed through GIT_CONFIG_COUNT/KEY_n/VALUE_n: keys and values travel separately, so a
 * driver named with an '=' cannot split a `-c` argument, and entries the caller's environment
 * already passes this way are kept.
 */
function withEnvConfig(env: Record<string, string | undefined>, entries: readonly [string, string][]): Record<string, string | undefined> {
  const existing = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10);
  let index = Number.isInteger(existing) && existing > 0 ? existing : 0;
  const out = { ...env };
  for (const [key, value] of entries) {
    out[`GIT_CONFIG_KEY_${index}`] = key;
    out[`GIT_CONFIG_VALUE_${index}`] = value;
    index += 1;
  }
  out.GIT_CONFIG_COUNT = String(index);
  return out;
}

/** Runs `git <args>` in ctx.cwd; returns the raw result (non-zero exits are not thrown). */
export async function git(ctx: CommandContext, args: readonly string[], options: GitOptions = {}): Promise<GitOutput> {
  // LC_ALL=C keeps git's messages in English so the few we recognise stay recognisable; no prompt
  // may ever wait for a terminal; paths come back unquoted (bytes as-is), colours off. The
  // system-wide config is skipped (GIT_CONFIG_NOSYSTEM) and no editor or pager can start.
  const env: Record<string, string | undefined> = {
    ...ctx.env,
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: ':',
    GIT_SEQUENCE_EDITOR: ':',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
  };
  // No transport is allowed: a repository's remotes or submodules never reach the network.
  const pinned: [string, string][] = [...PROTECTING_CONFIG, ['protocol.allow', 'never']];
  const drivers = await repositoryDrivers(ctx, withEnvConfig(env, pinned));
  const global = ['--no-pager', '-c', 'core.quotepath=off', '-c', 'color.ui=false', ...(options.writes ? [] : ['--no-optional-locks'])];
  const [sub, ...rest] = args;
  const command = sub === undefined ? [] : [sub, ...(DIFF_FLAGS[sub] ?? []), ...rest];
  const result = await runProcess('git', [...global, ...command], {
    cwd: ctx.cwd,
    env: withEnvConfig(env, [...pinned, ...drivers]),
    signal: ctx.signal,
    maxBytes: options.maxBytes,
  });
  switch (result.kind) {
    case 'cancelled':
      throw cancelledError(ctx.signal.reason);
    case 'missing':
      throw missingGit(`'git' was not found on PATH (${ctx.env.PATH ?? 'PATH is unset'})`);
    case 'failed':
      throw new AhError({
        code: 'COMMAND_EXECUTION_FAILED',
        message: 'could not start git',
        cause: result.message,
        domain: 'git',
        operation: 'process.execute',
      });
    case 'exited':
      if (result.cancelled || result.timedOut) throw cancelledError(ctx.signal.reason);
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
export function gitFailed(args: readonly string[], out: GitOutput): AhError {
  return new AhError({
    code: 'COMMAND_FAILED',
    message: `git ${args[0] ?? ''} failed (exit ${out.code ?? 'by signal'})`,
    cause: out.stderr || 'git printed nothing on stderr',
    hint: hintFor(out.stderr),
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
