/**
 * Runs a short-lived helper program to completion (git and friends) and captures stdout/stderr
 * as bytes, bounded, honouring an AbortSignal. ENOENT is reported as data so callers can map it.
 */
import { spawn } from 'node:child_process';

export interface ExecOptions {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  /** Cap per stream; the rest is dropped and `truncated` set. */
  maxBytes?: number;
}

export type ExecResult =
  | { kind: 'missing'; program: string }
  | { kind: 'exited'; code: number | null; stdout: Buffer; stderr: Buffer; truncated: boolean };

const DEFAULT_MAX = 64 * 1024 * 1024;

export function execCapture(program: string, args: readonly string[], options: ExecOptions): Promise<ExecResult> {
  const max = options.maxBytes ?? DEFAULT_MAX;
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      signal: options.signal,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outSize = 0;
    let errSize = 0;
    let truncated = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (outSize >= max) {
        truncated = true;
        return;
      }
      out.push(chunk);
      outSize += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (errSize < max) {
        err.push(chunk);
        errSize += chunk.length;
      }
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') resolve({ kind: 'missing', program });
      else reject(error);
    });
    child.once('close', (code) => {
      resolve({ kind: 'exited', code, stdout: Buffer.concat(out), stderr: Buffer.concat(err), truncated });
    });
  });
}
