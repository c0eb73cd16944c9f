/**
 * A change is planned as a list of steps before anything happens, so `--dry-run` and the
 * interactive summary show exactly what a real run does. A file step carries an edit function and
 * is re-applied to the file as it is at execution time: a client that rewrote its config between
 * our probe and our write (Claude sessions do) does not lose its change.
 */
import { mkdir, realpath, stat, unlink } from 'node:fs/promises';
import { AhError } from '../errors.js';
import { writeFileAtomic } from '../platform/atomic-write.js';
import { runProcess } from '../platform/exec.js';
import { readTextIfPresent } from '../platform/read-text.js';
import type { AgentContext } from './context.js';
import { lineDiff } from './diff.js';
import { isSensitiveName, REDACTED, redactText } from '../logging/redact.js';

export interface RunStep {
  kind: 'run';
  /** Absolute path of the agent CLI. */
  program: string;
  /** How the command is shown (the CLI's bare name). */
  name: string;
  args: string[];
  /** Directories the CLI needs before it starts (Codex refuses a missing CODEX_HOME). */
  ensureDirs?: string[];
  /** Run when this step fails, to put the previous registration back. */
  restore?: string[];
}

export interface FileStep {
  kind: 'file';
  path: string;
  before: string | null;
  /** null: the file is deleted. */
  after: string | null;
  edit(current: string | null): string | null;
  /** An agent config (other servers' settings may sit on a changed line): shown with secrets masked. */
  config?: boolean;
}

export type Step = RunStep | FileStep;

/** How long an agent CLI may take to add or remove a server (they start a whole Node app). */
const CLI_TIMEOUT_MS = 120_000;
const STDERR_TAIL = 800;

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * A diff line of an agent config with the values of secret-looking keys (`"GITHUB_TOKEN": "…"`,
 * `Authorization = "…"`) and secret-looking free text replaced: a one-line config puts other
 * servers' settings on the line our entry changes.
 */
export function maskSecrets(line: string): string {
  const masked = line.replace(
    /("?)([A-Za-z0-9_.-]+)\1(\s*[:=]\s*)("(?:[^"\\]|\\.)*"|'[^']*')/g,
    (m, q: string, key: string, sep: string) => (isSensitiveName(key) ? `${q}${key}${q}${sep}"${REDACTED}"` : m),
  );
  return redactText(masked);
}

export function commandLine(step: RunStep, args = step.args): string {
  return [step.name, ...args].map(quote).join(' ');
}

/** The steps as text for people: commands as a shell would take them, file changes as diffs. */
export function describeSteps(steps: readonly Step[]): string[] {
  const lines: string[] = [];
  for (const step of steps) {
    if (step.kind === 'run') lines.push(`run: ${commandLine(step)}`);
    else if (step.after === null) lines.push(`delete: ${step.path}`);
    else {
      lines.push(`${step.before === null ? 'create' : 'edit'}: ${step.path}`);
      lines.push(...lineDiff(step.before ?? '', step.after).map((l) => `  ${step.config ? maskSecrets(l) : l}`));
    }
  }
  return lines;
}

/** The file a write lands in: through a symlink (dotfile managers link configs) to its target. */
async function writeTarget(path: string): Promise<{ target: string; mode: number }> {
  try {
    const target = await realpath(path);
    return { target, mode: (await stat(target)).mode & 0o777 };
  } catch {
    return { target: path, mode: 0o644 };
  }
}

async function applyFile(step: FileStep): Promise<void> {
  const { target, mode } = await writeTarget(step.path);
  const current = await readTextIfPresent(target);
  const next = step.edit(current);
  if (next === current) return;
  if (next === null) {
    await unlink(target).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    return;
  }
  await writeFileAtomic(target, next, mode);
}

export function cliMissing(name: string, why: string): AhError {
  return new AhError({
    code: 'AI_AGENT_CLI_MISSING',
    message: `the '${name}' command was not found on PATH`,
    cause: why,
    hint: `Install the agent's CLI (or put it on PATH) and run again.`,
    operation: 'ai.install',
  });
}

async function run(ctx: AgentContext, step: RunStep, args: string[]): Promise<{ ok: true } | { ok: false; error: AhError }> {
  for (const dir of step.ensureDirs ?? []) await mkdir(dir, { recursive: true });
  const r = await runProcess(step.program, args, {
    cwd: ctx.projectRoot,
    env: ctx.env,
    timeoutMs: CLI_TIMEOUT_MS,
    keep: 'tail',
    maxBytes: 64 * 1024,
  });
  if (r.kind === 'missing') return { ok: false, error: cliMissing(step.name, `${step.program} is gone`) };
  if (r.kind === 'exited' && r.code === 0) return { ok: true };
  const stderr = r.kind === 'exited' ? r.stderr.toString('utf8').trim() : '';
  const tail = stderr.length > STDERR_TAIL ? `…${stderr.slice(-STDERR_TAIL)}` : stderr;
  const how =
    r.kind === 'exited'
      ? r.timedOut
        ? `timed out after ${CLI_TIMEOUT_MS} ms`
        : `exited with ${r.code ?? r.signal}`
      : r.kind === 'failed'
        ? r.message
        : 'was cancelled';
  return {
    ok: false,
    error: new AhError({
      code: 'AI_AGENT_CLI_FAILED',
      message: `'${commandLine(step, args)}' ${how}`,
      cause: tail === '' ? 'it wrote nothing on stderr' : tail,
      hint: `Run the command yourself to see what '${step.name}' needs, then run ah again.`,
      operation: 'ai.install',
    }),
  };
}

/** Runs the steps in order; a failing CLI step first runs its restore command (best effort), then throws. */
export async function executeSteps(ctx: AgentContext, steps: readonly Step[]): Promise<void> {
  for (const step of steps) {
    if (step.kind === 'file') {
      await applyFile(step);
      continue;
    }
    const result = await run(ctx, step, step.args);
    if (result.ok) continue;
    if (step.restore) await run(ctx, step, step.restore);
    throw result.error;
  }
}
