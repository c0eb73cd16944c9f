/**
 * Who may write to fd 1. Over stdio, stdout carries only MCP messages, but plugin modules and
 * handlers are foreign code that may `console.log` or `process.stdout.write`. These helpers send
 * every such write to stderr: for a while (plugin import, in every mode, so `--json` output stays
 * clean too), or for good, handing the one real writer to the MCP transport.
 */
import { Writable } from 'node:stream';

type WriteFn = typeof process.stdout.write;

const toStderr: WriteFn = ((chunk: unknown, encoding?: unknown, callback?: unknown) =>
  process.stderr.write(chunk as string, encoding as BufferEncoding, callback as () => void)) as WriteFn;

/** Runs `fn` with stdout writes sent to stderr, then gives stdout back. */
export async function withStdoutOnStderr<T>(fn: () => Promise<T>): Promise<T> {
  const original = process.stdout.write;
  process.stdout.write = toStderr;
  try {
    return await fn();
  } finally {
    if (process.stdout.write === toStderr) process.stdout.write = original;
  }
}

/**
 * Sends every later stdout write to stderr and returns the only stream that still reaches fd 1
 * (backpressure and errors of the real stdout pass through it).
 */
export function claimStdout(): NodeJS.WritableStream {
  const real = process.stdout;
  const write = real.write.bind(real) as (chunk: Buffer | string, callback: (error?: Error | null) => void) => boolean;
  process.stdout.write = toStderr;
  const owned = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (write(chunk, () => undefined)) callback();
      else real.once('drain', () => callback());
    },
  });
  real.on('error', (error) => owned.destroy(error));
  return owned;
}
