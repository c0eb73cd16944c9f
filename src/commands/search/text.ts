import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { createSpec } from './matcher.js';
import { scanInline, scanPool } from './pool.js';
import { BACKEND, batchesOf, batchesOffThread, compileGlobs, displayPath, resolveRoots, SEARCH_EFFECTS } from './roots.js';
import type { FileResult } from './scan.js';

const input = RootObject({
  pattern: Type.String({ minLength: 1, description: 'Text to find (a regular expression with regex: true)' }),
  paths: Type.Array(Type.String({ minLength: 1 }), {
    default: [],
    description: 'Files or directories to search (default: the working directory)',
  }),
  globs: Type.Array(Type.String(), { default: [], description: 'Only files matching these globs; a leading ! excludes' }),
  regex: Type.Boolean({ default: false, description: 'Treat the pattern as a regular expression' }),
  ignore_case: Type.Boolean({ default: false, description: 'Case-insensitive matching' }),
  context_lines: Type.Optional(Type.Integer({ minimum: 0, description: 'Lines of context before and after each hit' })),
  max_bytes: Type.Integer({ minimum: 1, default: 8388608, description: 'Skip files larger than this many bytes' }),
  follow_symlinks: Type.Boolean({ default: false, description: 'Follow symbolic links' }),
});
const CONTEXT = Type.Array(Closed({ line: Type.Integer({ minimum: 1 }), text: Type.String() }));
const MATCH = Closed({
  path: Type.String(),
  line: Type.Integer({ minimum: 1 }),
  column: Type.Integer({ minimum: 1 }),
  text: Type.String(),
  context_before: CONTEXT,
  context_after: CONTEXT,
});
const output = RootObject({
  command: Type.Literal('search.text'),
  backend: Type.String(),
  pattern: Type.String(),
  regex: Type.Boolean(),
  ignore_case: Type.Boolean(),
  context: Nullable(Type.Integer({ minimum: 0 })),
  root: Type.String(),
  roots: Type.Array(Type.String()),
  match_count: Type.Integer({ minimum: 0 }),
  file_count: Type.Integer({ minimum: 0 }),
  matches: Type.Array(MATCH),
  skipped_binary_files: Type.Integer({ minimum: 0 }),
  skipped_large_files: Type.Integer({ minimum: 0 }),
  skipped_symlink_files: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;
type Match = Static<typeof MATCH>;

/** Files per chunk handed to a worker (the first chunks are smaller, to start the workers early). */
const CHUNK = 32;
const FIRST_CHUNK = 8;
/** Chunks of one search in flight at once (bounds memory and the work past a reached limit). */
const IN_FLIGHT = 8;

function render(o: Output): string {
  const lines: string[] = [];
  for (const m of o.matches) {
    for (const c of m.context_before) lines.push(`${m.path}-${c.line}-${c.text}`);
    lines.push(`${m.path}:${m.line}:${m.text}`);
    for (const c of m.context_after) lines.push(`${m.path}-${c.line}-${c.text}`);
  }
  if (o.truncated) lines.push(`[truncated after ${o.match_count} matches]`);
  if (lines.length === 0) lines.push('no matches');
  return lines.join('\n');
}

export const text = defineCommand({
  id: 'search.text',
  title: 'Search file contents',
  description:
    'Search text in files under one or more roots, honouring .gitignore, .ignore, .rgignore, git global excludes and hidden-file rules. Literal by default; one match per line with 1-based line and character column. Match paths are relative to the working directory with forward slashes.',
  inputSchema: input,
  outputSchema: output,
  effects: SEARCH_EFFECTS,
  examples: [
    { description: 'Find a function name', arguments: { pattern: 'createServer' } },
    {
      description: 'Regex in TypeScript files with context',
      arguments: { pattern: 'TODO|FIXME', regex: true, globs: ['*.ts'], context_lines: 2 },
    },
  ],
  cli: { positionals: ['pattern', 'paths'], aliases: { glob: 'globs', context: 'context_lines' } },
  render,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    // One match past the limit proves truncation exactly.
    const budget = ctx.limit === null ? Number.POSITIVE_INFINITY : ctx.limit + 1;
    const spec = createSpec(args.pattern, {
      regex: args.regex,
      ignoreCase: args.ignore_case,
      maxBytes: args.max_bytes,
      context: args.context_lines ?? 0,
      maxHits: budget,
    });
    const accept = compileGlobs(args.globs);
    const roots = await resolveRoots(ctx.cwd, args.paths);
    const counters = { skippedSymlinks: 0 };
    const workers = ctx.env.AH_SEARCH_WORKERS !== '0';
    // The walk runs on a worker thread too (falling back to the main thread), unless workers are off
    // (AH_SEARCH_WORKERS=0: everything on the main thread; AH_SEARCH_WALK_WORKER=0: the walk only).
    const walk = (workers && ctx.env.AH_SEARCH_WALK_WORKER !== '0' ? batchesOffThread : batchesOf)(
      roots,
      { followSymlinks: args.follow_symlinks, env: ctx.env, signal: ctx.signal, ...(accept ? { accept } : {}) },
      counters,
    );
    const matches: Match[] = [];
    const files = new Set<string>();
    let binary = 0;
    let large = 0;

    // Chunks of files are scanned by the worker pool (or inline) and consumed strictly in walk order.
    const pool = workers ? scanPool() : null;
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    const scan = (chunk: string[]) => (pool ? pool.scan(spec, chunk, cancel) : scanInline(spec, chunk, cancel));
    const stop = () => {
      if (pool) pool.cancel(cancel);
      else Atomics.store(cancel, 0, 1);
    };
    let rejectAbort: (reason: unknown) => void = () => undefined;
    const aborted = new Promise<never>((_, reject) => {
      rejectAbort = reject;
    });
    aborted.catch(() => undefined);
    const onAbort = () => {
      stop();
      rejectAbort(ctx.signal.reason);
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });

    interface Pending {
      files: string[];
      results: FileResult[] | null | undefined;
      done: Promise<void>;
    }
    const queue: Pending[] = [];
    let full = false;
    const dispatch = (chunk: string[]) => {
      const item: Pending = { files: chunk, results: undefined, done: Promise.resolve() };
      item.done = scan(chunk).then((r) => {
        item.results = r;
      });
      // Errors surface when the chunk is consumed; never as an unhandled rejection.
      item.done.catch(() => undefined);
      queue.push(item);
    };
    const consume = (item: Pending) => {
      const results = item.results;
      if (results === null || results === undefined) throw ctx.signal.aborted ? ctx.signal.reason : new Error('search cancelled');
      for (let i = 0; i < results.length; i += 1) {
        const result = results[i] as FileResult;
        if (result === 'n' || result === 'g') continue;
        if (result === 'l') {
          large += 1;
          continue;
        }
        if (result === 'b') {
          binary += 1;
          continue;
        }
        const path = displayPath(ctx.cwd, item.files[i] as string);
        files.add(path);
        for (const hit of result) {
          matches.push({ path, line: hit.line, column: hit.column, text: hit.text, context_before: hit.before, context_after: hit.after });
          if (matches.length >= budget) break;
        }
        if (matches.length >= budget) {
          full = true;
          return;
        }
      }
    };
    const settle = async (item: Pending) => {
      await Promise.race([item.done, aborted]);
      if (ctx.signal.aborted) throw ctx.signal.reason;
      consume(item);
    };

    try {
      let chunk: string[] = [];
      let size = FIRST_CHUNK;
      for (;;) {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        // Consume whatever finished at the head, and wait when too much is in flight.
        while (queue.length > 0 && !full && ((queue[0] as Pending).results !== undefined || queue.length >= IN_FLIGHT)) {
          await settle(queue.shift() as Pending);
        }
        if (full) break;
        // next() by hand: breaking out of for-await would close the generator.
        const next = walk.next();
        next.catch(() => undefined);
        const step = await Promise.race([next, aborted]);
        if (step.done) break;
        for (const file of step.value) {
          chunk.push(file.absolute);
          if (chunk.length >= size) {
            dispatch(chunk);
            chunk = [];
            size = Math.min(CHUNK, size * 2);
          }
        }
      }
      if (!full && chunk.length > 0) dispatch(chunk);
      while (queue.length > 0 && !full) await settle(queue.shift() as Pending);
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      // Stop the workers on whatever is left (a reached limit, an abort or an error).
      stop();
      await walk.return(undefined).catch(() => undefined);
    }
    const truncated = matches.length > (ctx.limit ?? Number.POSITIVE_INFINITY);
    if (truncated) matches.length = ctx.limit as number;
    const shownFiles = new Set(matches.map((m) => m.path));
    return {
      command: 'search.text',
      backend: BACKEND,
      pattern: args.pattern,
      regex: args.regex,
      ignore_case: args.ignore_case,
      context: args.context_lines ?? null,
      root: roots[0]?.given ?? '.',
      roots: roots.map((r) => r.given),
      match_count: matches.length,
      file_count: truncated ? shownFiles.size : files.size,
      matches,
      skipped_binary_files: binary,
      skipped_large_files: large,
      skipped_symlink_files: counters.skippedSymlinks,
      truncated,
    };
  },
});
