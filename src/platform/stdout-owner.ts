/**
 * Who may write to fd 1. Over stdio, stdout carries only MCP messages, but plugin modules and
 * handlers are foreign code that may `console.log` or `process.stdout.write`. `withStdoutOnStderr`
 * sends every such write to stderr for a while (plugin import and each CLI command, so `--json`
 * output stays clean too); `claimStdout` (stdout-claim.ts) does it for good over stdio.
 *
 * `process.stdout` is made on first use, and making it costs about 3 ms (the stream classes and,
 * for a pipe, `net`). The CLI writes its own output to fd 1 directly, so this module does not make
 * the stream just to patch it: it wraps Node's lazy getter once, learns when the stream is made,
 * and patches it then if a redirection is on.
 */

type WriteFn = typeof process.stdout.write;

export const toStderr: WriteFn = ((chunk: unknown, encoding?: unknown, callback?: unknown) =>
  process.stderr.write(chunk as string, encoding as BufferEncoding, callback as () => void)) as WriteFn;

/** The stdout stream once something has made it; undefined while nobody has asked for it. */
let made: NodeJS.WriteStream | undefined;
let watching = false;
/** Redirections running now (they may overlap); stdout writes go to stderr while above 0. */
let active = 0;
let original: WriteFn | undefined;

/** Wraps Node's lazy `process.stdout` getter so that making the stream is seen here. */
function watch(): void {
  if (watching) return;
  watching = true;
  const descriptor = Object.getOwnPropertyDescriptor(process, 'stdout');
  const getStdout = descriptor?.get;
  if (descriptor === undefined || getStdout === undefined || descriptor.configurable !== true) {
    // Not the lazy getter this module knows: take the stream now.
    made = process.stdout;
    return;
  }
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: descriptor.enumerable,
    get() {
      const stream = getStdout.call(process) as NodeJS.WriteStream;
      if (made === undefined) {
        made = stream;
        if (active > 0) patch(stream);
      }
      return stream;
    },
  });
}

function patch(stream: NodeJS.WriteStream): void {
  if (stream.write === toStderr) return;
  original = stream.write;
  stream.write = toStderr;
}

/** Runs `fn` with stdout writes sent to stderr, then gives stdout back. */
export async function withStdoutOnStderr<T>(fn: () => Promise<T>): Promise<T> {
  watch();
  active += 1;
  if (made !== undefined) patch(made);
  try {
    return await fn();
  } finally {
    active -= 1;
    // Someone else (claimStdout) may have taken stdout over since: then it stays theirs.
    if (active === 0 && made !== undefined && made.write === toStderr && original !== undefined) made.write = original;
  }
}
