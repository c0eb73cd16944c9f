/**
 * Runs a short-lived helper program (git and friends) to completion and captures stdout and stderr
 * as bytes, each under its own cap. Nothing is thrown for the expected outcomes: a missing program,
 * a failed start and a cancellation come back as typed results so callers map them to their own
 * error codes. Argv only (no shell), stdin closed. Only this file and spawn.ts use child_process.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';

export interface ExecOptions {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  /** Cap per stream in bytes; the rest is drained and dropped, and the stream marked truncated. */
  maxBytes?: number;
  /** After an abort, how long SIGTERM gets before SIGKILL (ms). */
  killGraceMs?: number;
}

export type ExecResult =
  /** The program was not found on PATH (or at the given path). */
  | { kind: 'missing'; program: string }
  /** The process could not be started for another reason (permissions, bad cwd…). */
  | { kind: 'failed'; program: string; errno: string | undefined; message: string }
  /** The signal fired; the process was killed (or never started). */
  | { kind: 'aborted'; program: string }
  | {
      kind: 'exited';
      /** Exit status, or null when a signal ended the process. */
      code: number | null;
      signal: NodeJS.Signals | null;
      stdout: Buffer;
      stderr: Buffer;
      stdoutTruncated: boolean;
      stderrTruncated: boolean;
    };

export const DEFAULT_EXEC_MAX_BYTES = 64 * 1024 * 1024;

/** Keeps the first `cap` bytes of a stream. */
class Sink {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (chunk.length > room) {
      this.truncated = true;
      if (room <= 0) return;
      chunk = chunk.subarray(0, room);
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function execCapture(program: string, args: readonly string[], options: ExecOptions): Promise<ExecResult> {
  if (options.signal?.aborted) return Promise.resolve({ kind: 'aborted', program });
  const cap = options.maxBytes ?? DEFAULT_EXEC_MAX_BYTES;
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(program, args, {
        cwd: options.cwd,
        env: options.env as NodeJS.ProcessEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
        shell: false,
      });
    } catch (error) {
      // Synchronous throws are argument problems (e.g. a NUL byte in an argument).
      const e = error as NodeJS.ErrnoException;
      resolve({ kind: 'failed', program, errno: e.code, message: e.message });
      return;
    }
    const out = new Sink(cap);
    const err = new Sink(cap);
    let aborted = false;
    let escalation: NodeJS.Timeout | undefined;
    const onAbort = () => {
      aborted = true;
      // SIGTERM first so a writer such as `git tag` can remove its lock file; then insist.
      child.kill('SIGTERM');
      escalation = setTimeout(() => child.kill('SIGKILL'), options.killGraceMs ?? 1000);
      escalation.unref();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      options.signal?.removeEventListener('abort', onAbort);
      if (escalation) clearTimeout(escalation);
    };
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    let settled = false;
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      cleanup();
      // libuv reports a missing working directory as ENOENT too; only blame the program when
      // the directory is really there.
      if (error.code === 'ENOENT' && isDirectory(options.cwd)) resolve({ kind: 'missing', program });
      else if (error.code === 'ENOENT') {
        resolve({ kind: 'failed', program, errno: 'ENOENT', message: `working directory not found: ${options.cwd}` });
      } else resolve({ kind: 'failed', program, errno: error.code, message: error.message });
    });
    child.once('close', (code, signal) => {
      if (settled) return;
      settled = true;
      cleanup();
      if (aborted) {
        resolve({ kind: 'aborted', program });
        return;
      }
      resolve({
        kind: 'exited',
        code,
        signal,
        stdout: out.bytes(),
        stderr: err.bytes(),
        stdoutTruncated: out.truncated,
        stderrTruncated: err.truncated,
      });
    });
  });
}

/** A long-lived helper whose lifetime is tied to ours through its stdin pipe (see holdWhileAlive). */
export interface HeldChild {
  /** Resolves with the first stdout line, or null once the helper has exited without one. */
  readonly firstLine: Promise<string | null>;
  /** Resolves with the exit code once the helper is gone. */
  readonly exited: Promise<number | null>;
  /** Closes the helper's stdin: a helper that reads it to EOF then ends on its own. */
  release(): void;
}

/**
 * Starts a helper that keeps running until its stdin reaches EOF. EOF comes from `release()` or,
 * when this process dies for any reason (even SIGKILL), from the kernel closing the pipe, so a
 * resource the helper holds (an flock) can never outlive us. Nothing here keeps the event loop
 * alive.
 */
export function holdWhileAlive(program: string, args: readonly string[], env: Readonly<Record<string, string | undefined>>): HeldChild {
  const child = spawn(program, args, { env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true, shell: false });
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('close', (code) => resolve(code));
  });
  const firstLine = new Promise<string | null>((resolve) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    void exited.then(() => resolve(null));
  });
  child.stdin?.on('error', () => undefined);
  // Only once the helper has answered: until then its pipe must keep us waiting for it.
  void firstLine.then(() => {
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    (child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
  });
  return {
    firstLine,
    exited,
    release: () => {
      child.stdin?.end();
    },
  };
}
