import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { createSpec } from './matcher.js';
import { type MatchRecord, planSearch } from './engine.js';
import { compileGlobs } from './globs.js';
import { runForCaller, startWorkersFor } from './parallel.js';
import { BACKEND, resolveRoots, SEARCH_EFFECTS } from './roots.js';
import { monotonicMs } from '../../platform/clock.js';
import { MAX_TEXT_FILE_BYTES } from '../../platform/text.js';

/** Bounds on what one call may ask for: every search thread holds the largest file it read in memory. */
const MAX_CONTEXT_LINES = 1000;

const input = RootObject({
  pattern: Type.String({ minLength: 1, description: 'Text to find (a regular expression with regex: true)' }),
  paths: Type.Array(Type.String({ minLength: 1 }), {
    default: [],
    description: 'Files or directories to search (default: the working directory)',
  }),
  globs: Type.Array(Type.String(), { default: [], description: 'Only files matching these globs; a leading ! excludes' }),
  regex: Type.Boolean({ default: false, description: 'Treat the pattern as a regular expression' }),
  ignore_case: Type.Boolean({ default: false, description: 'Case-insensitive matching' }),
  context_lines: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_CONTEXT_LINES, description: 'Lines of context before and after each hit' }),
  ),
  max_bytes: Type.Integer({
    minimum: 1,
    maximum: MAX_TEXT_FILE_BYTES,
    default: 8388608,
    description: 'Skip files larger than this many bytes',
  }),
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

/** Longest stretch of merging between two turns of a server's event loop. */
const MERGE_SLICE_MS = 10;

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
    const participate = ctx.transport === 'cli';
    startWorkersFor(ctx);
    // One match past the limit proves truncation exactly.
    const budget = ctx.limit === null ? Number.POSITIVE_INFINITY : ctx.limit + 1;
    const spec = createSpec(args.pattern, {
      regex: args.regex,
      ignoreCase: args.ignore_case,
      maxBytes: args.max_bytes,
      context: args.context_lines ?? 0,
      maxHits: budget,
    });
    // Checked here, before the roots: a bad glob is reported first (planSearch compiles them again).
    compileGlobs(args.globs);
    const roots = await resolveRoots(ctx.cwd, args.paths);
    const plan = planSearch(roots, { cwd: ctx.cwd, spec, globs: args.globs, followSymlinks: args.follow_symlinks, env: ctx.env });
    const results = await runForCaller(plan.job, ctx, budget);
    const matches: MatchRecord[] = [];
    let binary = 0;
    let large = 0;
    let symlinks = plan.symlinks;
    // A server merges in slices: a search with a million hits must not hold its event loop.
    let slice = monotonicMs();
    for (const unit of results) {
      binary += unit.binary;
      large += unit.large;
      symlinks += unit.symlinks;
      for (const match of unit.matches) {
        if (matches.length >= budget) break;
        matches.push(match);
        if (!participate && (matches.length & 1023) === 0 && monotonicMs() - slice > MERGE_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          if (ctx.signal.aborted) throw ctx.signal.reason;
          slice = monotonicMs();
        }
      }
    }
    const truncated = matches.length > (ctx.limit ?? Number.POSITIVE_INFINITY);
    if (truncated) matches.length = ctx.limit as number;
    // Every file with a hit among the matches (each file's hits are consecutive).
    const fileCount = matches.reduce((count, m, i) => (i === 0 || m.path !== matches[i - 1]?.path ? count + 1 : count), 0);
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
      file_count: fileCount,
      matches,
      skipped_binary_files: binary,
      skipped_large_files: large,
      skipped_symlink_files: symlinks,
      truncated,
    };
  },
});
