/** The only place the CLI writes to stdout/stderr. Colours only on a TTY and never with NO_COLOR. */
import { writeSync } from 'node:fs';
import type { Notice } from '../../catalog/descriptor.js';

export interface Style {
  color: boolean;
}

export function styleFor(stream: NodeJS.WriteStream, env: Readonly<Record<string, string | undefined>>): Style {
  return { color: stream.isTTY === true && env.NO_COLOR === undefined && env.TERM !== 'dumb' };
}

export const paint = {
  bold: (s: Style, text: string) => (s.color ? `\u001b[1m${text}\u001b[22m` : text),
  red: (s: Style, text: string) => (s.color ? `\u001b[31m${text}\u001b[39m` : text),
  yellow: (s: Style, text: string) => (s.color ? `\u001b[33m${text}\u001b[39m` : text),
  dim: (s: Style, text: string) => (s.color ? `\u001b[2m${text}\u001b[22m` : text),
};

/**
 * Synchronous writes so output is complete before the process exits, even to a pipe.
 * EAGAIN on a non-blocking pipe is retried; EPIPE (reader went away) is given up silently.
 */
function writeAll(fd: number, text: string): boolean {
  const buffer = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < buffer.length) {
    try {
      offset += writeSync(fd, buffer, offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') continue;
      return false;
    }
  }
  return true;
}

export function out(text: string): boolean {
  return writeAll(1, text.endsWith('\n') || text === '' ? text : `${text}\n`);
}

export function err(text: string): void {
  writeAll(2, text.endsWith('\n') ? text : `${text}\n`);
}

export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Prints a host command's result as JSON or text (nothing with --quiet); exit code 0. */
export function printResult(env: { quiet: boolean; json: boolean }, value: unknown, text: string): number {
  if (!env.quiet) out(env.json ? renderJson(value) : text);
  return 0;
}

export function renderNotices(notices: readonly Notice[], style: Style): string {
  return notices.map((n) => paint.yellow(style, `note: ${n.message}`)).join('\n');
}
