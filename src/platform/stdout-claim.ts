/**
 * The MCP stdio server's hold on fd 1. Kept apart from stdout-owner.ts because it needs
 * node:stream, which no CLI command should load for it.
 */
import { Writable } from 'node:stream';
import { toStderr } from './stdout-owner.js';

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
