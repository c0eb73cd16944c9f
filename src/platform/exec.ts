/**
 * The one module that starts child processes (the only importer of node:child_process). Every
 * expected outcome is data, never a throw: a missing program, a failed start, a cancellation, a
 * timeout. Argv only (no shell), stdin closed, stdout and stderr drained concurrently, each kept
 * under its own byte cap (never more than MAX_CAPTURE_BYTES, so no capture can outgrow a string).
 *
 * Stopping a process tree (timeout, abort, shutdown): each child gets its own process group and a
 * marker in its environment (TREE_MARKER_ENV). On a stop we kill the group, every descendant by
 * parent chain, and (Linux) every process whose environment carries the marker, which finds
 * descendants that left the group with setsid and were re-parented when their parent exited. The
 * call resolves right after the kill, with the pipes destroyed: a grandchild holding them open
 * cannot hold the call past its deadline. Limits: a descendant that both clears its environment
 * and is orphaned before the stop is not found; on macOS only the process group is killed, on
 * Windows `taskkill /T` walks the tree. (Node cannot make us a child subreaper without an addon,
 * and a cgroup needs a writable delegated hierarchy, which is not there in containers.)
 *
 * execa was considered: it kills the direct child only (no group or escaped descendants) and its
 * `maxBuffer` fails the call instead of keeping a capped prefix or suffix, so we would wrap it as
 * much as we write here.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:os';
import { type Env, isDirectory } from './paths.js';
import { treeMembers } from './processes.js';
import { monotonicMs } from './clock.js';

/** Environment variable every child (and so every descendant) carries, naming its tree. */
const TREE_MARKER_ENV = 'AH_PROCESS_TREE';

/** No stream is ever captured beyond this, whatever a caller asks for. */
const MAX_CAPTURE_BYTES = 64 * 1024 * 1024;

export interface RunOptions {
  cwd: string;
  env: Env;
  /** Aborting stops the whole tree; the result says `cancelled`. */
  signal?: AbortSignal;
  /** Stops the whole tree after this long; the result says `timedOut`. */
  timeoutMs?: number;
  /** Bytes kept per stream (default and ceiling MAX_CAPTURE_BYTES); the rest is drained and dropped. */
  maxBytes?: number;
  /** Keep the first bytes (default) or the last ones. */
  keep?: 'head' | 'tail';
  /** Called with the total bytes seen on both streams as output arrives. */
  onOutput?: (totalBytes: number) => void;
  /** On a stop, SIGTERM the tree and give it this long before SIGKILL (default 0: SIGKILL at once). */
  killGraceMs?: number;
  /** Written to the child's stdin, which is then closed (stdin is closed at once without it). */
  input?: string;
}

export type RunResult =
  /** The program was not found on PATH (or at the given path). */
  | { kind: 'missing'; program: string }
  /** The process could not be started for another reason (permissions, bad cwd, bad argument). */
  | { kind: 'failed'; program: string; errno: string | undefined; message: string }
  /** The signal had fired before the start: nothing ran. */
  | { kind: 'cancelled'; program: string }
  | {
      kind: 'exited';
      /** Exit status, or null when a signal ended the process (or it was still running when stopped). */
      code: number | null;
      signal: NodeJS.Signals | null;
      timedOut: boolean;
      cancelled: boolean;
      durationMs: number;
      stdout: Buffer;
      stderr: Buffer;
      stdoutTruncated: boolean;
      stderrTruncated: boolean;
    };

/** Collects one stream: the first `cap` bytes, or (tail) the last `cap` bytes. */
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
      const room = this.cap - this.size;
      if (chunk.length > room) {
        this.truncated = true;
        if (room <= 0) return;
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

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

function startFailure(program: string, cwd: string, error: NodeJS.ErrnoException): RunResult {
  // libuv reports a missing working directory as ENOENT too; only blame the program when the
  // directory is really there.
  if (error.code === 'ENOENT' && isDirectory(cwd)) return { kind: 'missing', program };
  if (error.code === 'ENOENT') return { kind: 'failed', program, errno: 'ENOENT', message: `working directory not found: ${cwd}` };
  return { kind: 'failed', program, errno: error.code, message: error.message };
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** Signals the process group, then every member of the tree found by parent chain and marker. */
async function signalTree(child: ChildProcess, marker: string, signal: NodeJS.Signals): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    try {
      spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).unref();
    } catch {
      child.kill(signal);
    }
    return;
  }
  signalPid(-pid, signal);
  signalPid(pid, signal);
  // A member may fork while we look: look again until nothing is left (bounded).
  for (let round = 0; round < 5; round += 1) {
    const members = await treeMembers(pid, marker).catch(() => []);
    const live = members.filter((m) => m !== process.pid);
    if (live.length === 0) return;
    for (const member of live) signalPid(member, signal);
    if (signal !== 'SIGKILL') return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Runs `program args` to completion (or its stop) and returns what happened as data. */
export function runProcess(program: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  if (options.signal?.aborted) return Promise.resolve({ kind: 'cancelled', program });
  const cap = Math.max(0, Math.min(options.maxBytes ?? MAX_CAPTURE_BYTES, MAX_CAPTURE_BYTES));
  const tail = options.keep === 'tail';
  const marker = `${TREE_MARKER_ENV}=${process.pid}-${randomBytes(8).toString('hex')}`;
  const started = monotonicMs();
  return new Promise<RunResult>((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(program, args, {
        cwd: options.cwd,
        env: { ...options.env, [TREE_MARKER_ENV]: marker.slice(TREE_MARKER_ENV.length + 1) } as NodeJS.ProcessEnv,
        stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
        shell: false,
      });
    } catch (error) {
      // Synchronous throws are argument problems (e.g. a NUL byte in an argument).
      const e = error as NodeJS.ErrnoException;
      resolve({ kind: 'failed', program, errno: e.code, message: e.message });
      return;
    }
    if (options.input !== undefined && child.stdin) {
      // A child that exits without reading its stdin makes the write fail with EPIPE: that is its answer.
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input);
    }
    const out = new Capture(cap, tail);
    const err = new Capture(cap, tail);
    let total = 0;
    let timedOut = false;
    let cancelled = false;
    let stopping = false;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let timer: NodeJS.Timeout | undefined;

    const finish = (result: RunResult) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // Whoever still holds our pipes must not keep them (or us) open.
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(result);
    };
    const exited = (): RunResult => {
      try {
        return {
          kind: 'exited',
          code: exit?.code ?? null,
          signal: exit?.signal ?? null,
          timedOut,
          cancelled,
          durationMs: Math.round(monotonicMs() - started),
          stdout: out.bytes(),
          stderr: err.bytes(),
          stdoutTruncated: out.truncated,
          stderrTruncated: err.truncated,
        };
      } catch (error) {
        return { kind: 'failed', program, errno: undefined, message: `could not collect the output: ${(error as Error).message}` };
      }
    };
    const stop = async (why: 'timeout' | 'cancel') => {
      if (stopping || settled) return;
      stopping = true;
      if (why === 'timeout') timedOut = true;
      else cancelled = true;
      const grace = options.killGraceMs ?? 0;
      if (grace > 0) {
        await signalTree(child, marker, 'SIGTERM');
        await new Promise<void>((r) => {
          const t = setTimeout(r, grace);
          child.once('close', () => {
            clearTimeout(t);
            r();
          });
        });
      }
      await signalTree(child, marker, 'SIGKILL');
      finish(exited());
    };
    const onAbort = () => {
      void stop('cancel');
    };
    if (options.timeoutMs !== undefined && Number.isFinite(options.timeoutMs)) {
      // setTimeout fires at once for delays above 2^31-1 ms: clamp.
      timer = setTimeout(() => void stop('timeout'), Math.min(Math.max(0, options.timeoutMs), 2_147_483_647));
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const take = (capture: Capture) => (chunk: Buffer) => {
      capture.push(chunk);
      total += chunk.length;
      try {
        options.onOutput?.(total);
      } catch {
        // A progress callback's failure is not the process's.
      }
    };
    child.stdout?.on('data', take(out));
    child.stderr?.on('data', take(err));
    // A stream error (EPIPE, a destroyed pipe) ends that stream; it must never go unhandled.
    child.stdout?.on('error', () => undefined);
    child.stderr?.on('error', () => undefined);
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) finish(startFailure(program, options.cwd, error));
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
    });
    child.once('close', (code, signal) => {
      exit = { code, signal };
      if (stopping) return;
      finish(exited());
    });
  });
}

/**
 * Starts a program that outlives us (a URL opener) and forgets it: no output captured, errors
 * swallowed. Resolves whether the process could be started at all.
 */
export function launchDetached(program: string, args: readonly string[], env: Env): Promise<boolean> {
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
export function spawnAttached(program: string, args: readonly string[], env: Env): AttachedChild {
  let child: ChildProcess;
  try {
    child = spawn(program, args, { env: env as NodeJS.ProcessEnv, stdio: 'inherit', windowsHide: true, shell: false });
  } catch {
    return { pid: undefined, exited: Promise.resolve(127), signal: () => undefined };
  }
  const exited = new Promise<number>((resolve) => {
    child.once('error', () => resolve(127));
    const signalNumbers = constants.signals as Record<string, number | undefined>;
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + (signalNumbers[signal] ?? 1) : 1)));
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
