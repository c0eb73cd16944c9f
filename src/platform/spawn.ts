/**
 * Long-running children with bounded capture: argv only (no shell), stdin closed, stdout and stderr
 * drained concurrently with independent byte caps, and the whole process group killed on timeout
 * or abort so no grandchild survives. The only module besides exec.ts that uses child_process.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { AhError } from '../errors.js';

export interface SpawnOptions {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Per-stream byte cap. */
  maxOutputBytes: number;
  /** Keep the last N lines (a bounded suffix) instead of the prefix. */
  tailLines?: number;
  /** Called with total bytes seen so far (both streams) as output arrives. */
  onOutput?: (totalBytes: number) => void;
}

export interface SpawnResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
}

/** Collects one stream: the prefix up to `cap` bytes, or (tail mode) the last `cap` bytes. */
class Capture {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(
    private readonly cap: number,
    private readonly tail: boolean,
  ) {}

  push(chunk: Buffer): void {
    if (!this.tail) {
      if (this.size >= this.cap) {
        this.truncated = true;
        return;
      }
      const room = this.cap - this.size;
      if (chunk.length > room) {
        this.truncated = true;
        chunk = chunk.subarray(0, room);
      }
      this.chunks.push(chunk);
      this.size += chunk.length;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.cap && this.chunks.length > 0) {
      this.truncated = true;
      const first = this.chunks[0] as Buffer;
      const excess = this.size - this.cap;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }

  text(tailLines: number | undefined): { text: string; truncated: boolean } {
    // Lossy UTF-8 only after capture: invalid bytes become U+FFFD.
    let text = Buffer.concat(this.chunks).toString('utf8');
    let truncated = this.truncated;
    if (tailLines !== undefined) {
      const lines = text.split('\n');
      const trailing = lines[lines.length - 1] === '' ? lines.pop() : undefined;
      if (lines.length > tailLines) {
        truncated = true;
        lines.splice(0, lines.length - tailLines);
      }
      text = lines.join('\n') + (trailing !== undefined && lines.length > 0 ? '\n' : '');
    }
    return { text, truncated };
  }
}

/** Kills a whole process group; falls back to the single process. */
export function killProcessGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (process.platform === 'win32') {
    // Windows has no process groups; taskkill /T walks the tree (untested on real Windows here).
    try {
      spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).unref();
    } catch {
      // Nothing more we can do.
    }
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

export function spawnCaptured(argv: readonly string[], options: SpawnOptions): Promise<SpawnResult> {
  const [program, ...args] = argv;
  if (program === undefined || program === '') {
    return Promise.reject(
      new AhError({ code: 'EXECUTION_REQUEST_INVALID', message: 'the command is empty', hint: 'Pass the program and its arguments.' }),
    );
  }
  const started = performance.now();
  return new Promise<SpawnResult>((resolve, reject) => {
    const tail = options.tailLines !== undefined;
    const out = new Capture(options.maxOutputBytes, tail);
    const err = new Capture(options.maxOutputBytes, tail);
    let total = 0;
    let timedOut = false;
    let cancelled = false;
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(program, args, {
        cwd: options.cwd,
        env: options.env as NodeJS.ProcessEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
        shell: false,
      });
    } catch (error) {
      reject(spawnError(program, error));
      return;
    }
    const kill = () => {
      if (child.pid !== undefined) killProcessGroup(child.pid);
    };
    let timer: NodeJS.Timeout | undefined;
    if (options.timeoutMs !== undefined && Number.isFinite(options.timeoutMs)) {
      timer = setTimeout(
        () => {
          timedOut = true;
          kill();
        },
        Math.max(0, options.timeoutMs),
      );
    }
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    const count = (chunk: Buffer) => {
      total += chunk.length;
      options.onOutput?.(total);
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      count(chunk);
      out.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      count(chunk);
      err.push(chunk);
    });
    let spawnFailed = false;
    child.once('error', (error) => {
      spawnFailed = true;
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(spawnError(program, error));
    });
    child.once('close', (code, signal) => {
      if (spawnFailed) return;
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // The direct child is gone; make sure nothing it started outlives it when we stopped it.
      if ((timedOut || cancelled) && child.pid !== undefined) killProcessGroup(child.pid);
      const stdout = out.text(options.tailLines);
      const stderr = err.text(options.tailLines);
      resolve({
        exitCode: code,
        signal,
        timedOut,
        cancelled,
        durationMs: Math.round(performance.now() - started),
        stdout: stdout.text,
        stderr: stderr.text,
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
      });
    });
  });
}

function spawnError(program: string, error: unknown): AhError {
  const code = (error as NodeJS.ErrnoException).code;
  const cause = error instanceof Error ? error.message : String(error);
  if (code === 'ENOENT') {
    return new AhError({
      code: 'COMMAND_EXECUTION_FAILED',
      message: `program not found: ${program}`,
      cause,
      hint: `Check that ${program} is installed and on PATH, or pass an absolute path.`,
      operation: 'process.execute',
    });
  }
  if (code === 'EACCES') {
    return new AhError({
      code: 'COMMAND_EXECUTION_FAILED',
      message: `permission denied running ${program}`,
      cause,
      hint: 'Check that the file is executable.',
      operation: 'process.execute',
    });
  }
  return new AhError({ code: 'COMMAND_EXECUTION_FAILED', message: `could not start ${program}`, cause, operation: 'process.execute' });
}

/**
 * Starts a program that outlives us (a URL opener) and forgets it: no output captured, errors
 * swallowed. Resolves whether the process could be started at all.
 */
export function launchDetached(
  program: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      const child = spawn(program, args, {
        env: env as NodeJS.ProcessEnv,
        stdio: 'ignore',
        detached: true,
        windowsHide: true,
        shell: false,
      });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}

/** A child that shares our stdio (a supervised server); `exited` resolves to its exit code. */
export interface AttachedChild {
  pid: number | undefined;
  exited: Promise<number>;
  signal(signal: NodeJS.Signals): void;
}

/**
 * Starts a program attached to our stdio and without a console window (Windows). Failure to start
 * resolves `exited` to 127, as a shell would report it.
 */
export function spawnAttached(program: string, args: readonly string[], env: Readonly<Record<string, string | undefined>>): AttachedChild {
  const child = spawn(program, args, { env: env as NodeJS.ProcessEnv, stdio: 'inherit', windowsHide: true, shell: false });
  const exited = new Promise<number>((resolve) => {
    child.once('error', () => resolve(127));
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + (osSignalNumber(signal) ?? 1) : 1)));
  });
  return {
    pid: child.pid,
    exited,
    signal: (signal) => {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
    },
  };
}

function osSignalNumber(signal: NodeJS.Signals): number | undefined {
  return (constants.signals as Record<string, number | undefined>)[signal];
}
