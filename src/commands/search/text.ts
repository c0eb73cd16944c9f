import { open } from 'node:fs/promises';
import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { decodeUtf8, looksLikeText, SNIFF_BYTES } from '../../platform/text.js';
import { createMatcher } from './matcher.js';
import { BACKEND, compileGlobs, displayPath, filesOf, resolveRoots, SEARCH_EFFECTS } from './roots.js';
import type { WalkedFile } from './walker.js';

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

const BATCH = 48;

type Loaded = { file: WalkedFile; kind: 'text'; bytes: Buffer } | { file: WalkedFile; kind: 'large' | 'binary' | 'gone' };

async function load(file: WalkedFile, maxBytes: number): Promise<Loaded> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file.absolute, 'r');
    const info = await handle.stat();
    if (info.size > maxBytes) return { file, kind: 'large' };
    const bytes = await handle.readFile();
    if (bytes.length > maxBytes) return { file, kind: 'large' };
    if (!looksLikeText(bytes.subarray(0, SNIFF_BYTES), bytes.length <= SNIFF_BYTES)) return { file, kind: 'binary' };
    return { file, kind: 'text', bytes };
  } catch {
    return { file, kind: 'gone' };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

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
    const matcher = createMatcher(args.pattern, args.regex, args.ignore_case);
    const accept = compileGlobs(args.globs);
    const roots = await resolveRoots(ctx.cwd, args.paths);
    const counters = { skippedSymlinks: 0 };
    const walk = filesOf(
      roots,
      { followSymlinks: args.follow_symlinks, env: ctx.env, signal: ctx.signal, ...(accept ? { accept } : {}) },
      counters,
    );
    // One match past the limit proves truncation exactly.
    const budget = ctx.limit === null ? Number.POSITIVE_INFINITY : ctx.limit + 1;
    const context = args.context_lines ?? 0;
    const matches: Match[] = [];
    const files = new Set<string>();
    let binary = 0;
    let large = 0;
    let done = false;
    while (!done) {
      const batch: WalkedFile[] = [];
      // next() by hand: breaking out of for-await would close the generator.
      while (batch.length < BATCH) {
        const step = await walk.next();
        if (step.done) break;
        batch.push(step.value);
      }
      if (batch.length === 0) break;
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const loaded = await Promise.all(batch.map((f) => load(f, args.max_bytes)));
      for (const item of loaded) {
        if (item.kind === 'large') large += 1;
        if (item.kind === 'binary') binary += 1;
        if (item.kind !== 'text' || !matcher.mayMatch(item.bytes)) continue;
        const decoded = decodeUtf8(item.bytes);
        if (decoded === null) {
          binary += 1;
          continue;
        }
        const hits = matcher.hits(decoded, budget - matches.length);
        if (hits.length === 0) continue;
        const path = displayPath(ctx.cwd, item.file.absolute);
        files.add(path);
        const lines = context > 0 ? decoded.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)) : [];
        const around = (from: number, to: number) => {
          const out: { line: number; text: string }[] = [];
          for (let n = Math.max(1, from); n <= Math.min(lines.length, to); n += 1) out.push({ line: n, text: lines[n - 1] as string });
          return out;
        };
        for (const hit of hits) {
          matches.push({
            path,
            line: hit.line,
            column: hit.column,
            text: hit.text,
            context_before: context > 0 ? around(hit.line - context, hit.line - 1) : [],
            context_after: context > 0 ? around(hit.line + 1, hit.line + context) : [],
          });
        }
        if (matches.length >= budget) {
          done = true;
          break;
        }
      }
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
