/**
 * Terminal prompts for secret values. On a terminal readline runs in raw mode, so the terminal
 * itself does not echo; hidden answers are kept off the screen by muting readline's own echo. The
 * streams are parameters so tests can drive the same code with plain streams.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { AhError } from '../errors.js';

interface PromptIO {
  input: NodeJS.ReadableStream;
  /** Where questions go (stderr for the CLI: stdout carries only results). */
  output: NodeJS.WritableStream;
  /** True when input is a terminal (raw mode; hidden answers are not echoed). */
  terminal: boolean;
}

export interface Prompter {
  line(question: string, options?: { hidden?: boolean }): Promise<string>;
  /** Lines up to one holding only `.`; joined with newlines (empty when the first line is `.`). */
  block(question: string, options?: { hidden?: boolean }): Promise<string>;
  /** A line of guidance (e.g. why an answer was refused). */
  note(text: string): void;
  close(): void;
}

/** A pasted key is a few KiB; this only stops a runaway paste from growing without end. */
const MAX_BLOCK_LINES = 4096;

function cancelled(reason: string): AhError {
  return new AhError({ code: 'EXECUTION_CANCELLED', message: `${reason}; nothing was saved`, operation: 'secrets.prompt' });
}

export function createPrompter(io: PromptIO): Prompter {
  let muted = false;
  // readline echoes typed characters through its output; this sink swallows them while muted.
  const sink = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) io.output.write(chunk);
      done();
    },
  });
  // historySize 0: answers must not linger in readline's history buffer.
  const rl = createInterface({ input: io.input, output: sink, terminal: io.terminal, historySize: 0 });
  const queued: string[] = [];
  const waiting: Array<{ resolve: (line: string) => void; reject: (error: AhError) => void }> = [];
  let ended: AhError | undefined;

  const finish = (error: AhError) => {
    ended ??= error;
    for (const w of waiting.splice(0)) w.reject(ended);
  };
  rl.on('line', (line) => {
    const w = waiting.shift();
    if (w) w.resolve(line);
    else queued.push(line);
  });
  rl.on('close', () => finish(cancelled('input ended')));
  // In raw mode Ctrl+C arrives here instead of as a signal; without a listener readline would just pause.
  rl.on('SIGINT', () => {
    finish(cancelled('interrupted'));
    rl.close();
  });

  const next = (): Promise<string> => {
    const line = queued.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (ended) return Promise.reject(ended);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };

  async function ask<T>(question: string, hidden: boolean, read: () => Promise<T>): Promise<T> {
    if (hidden) {
      // Written past the sink so it shows while the answer is muted.
      io.output.write(question);
      rl.setPrompt('');
      muted = true;
    } else {
      rl.setPrompt(question);
      rl.prompt();
    }
    try {
      return await read();
    } finally {
      if (hidden) {
        muted = false;
        // The muted Enter did not move the cursor.
        if (io.terminal) io.output.write('\n');
      }
    }
  }

  return {
    line: (question, options = {}) => ask(question, options.hidden === true, next),
    block: (question, options = {}) =>
      ask(question, options.hidden === true, async () => {
        const lines: string[] = [];
        for (;;) {
          const line = await next();
          if (line === '.') break;
          if (lines.length >= MAX_BLOCK_LINES) throw cancelled(`more than ${MAX_BLOCK_LINES} lines without a closing '.'`);
          lines.push(line);
        }
        return lines.join('\n');
      }),
    note: (text) => io.output.write(`${text}\n`),
    close: () => rl.close(),
  };
}
