import { defineCommand } from '../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../catalog/schema.js';
import { planSearch } from './engine.js';
import { runForCaller } from './parallel.js';
import { BACKEND, resolveRoots, SEARCH_EFFECTS } from './roots.js';

const input = RootObject({
  query: Type.String({ description: 'Case-sensitive substring of the path (empty lists every file)' }),
  paths: Type.Array(Type.String({ minLength: 1 }), { default: [], description: 'Directories to search (default: the working directory)' }),
  follow_symlinks: Type.Boolean({ default: false, description: 'Follow symbolic links' }),
});
const output = RootObject({
  command: Type.Literal('search.files'),
  backend: Type.String(),
  query: Type.String(),
  root: Type.String(),
  roots: Type.Array(Type.String()),
  match_count: Type.Integer({ minimum: 0 }),
  files: Type.Array(Type.String()),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const files = defineCommand({
  id: 'search.files',
  title: 'Find files by path',
  description:
    'List files whose path (relative to the working directory, forward slashes) contains the query, honouring the same ignore and hidden-file rules as search text.',
  inputSchema: input,
  outputSchema: output,
  effects: SEARCH_EFFECTS,
  examples: [
    { description: 'Files with "config" in their path', arguments: { query: 'config' } },
    { description: 'Every file under src', arguments: { query: '', paths: ['src'] } },
  ],
  cli: { positionals: ['query', 'paths'] },
  render: (o: Output) => [...o.files, ...(o.truncated ? [`[truncated after ${o.match_count} files]`] : [])].join('\n') || 'no files',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const roots = await resolveRoots(ctx.cwd, args.paths);
    // One path past the limit proves truncation exactly.
    const budget = ctx.limit === null ? Number.POSITIVE_INFINITY : ctx.limit + 1;
    // No contents are read: the spec only carries the budget.
    const spec = { literal: '', source: '', flags: '', maxBytes: 0, context: 0, maxHits: budget };
    const plan = planSearch(roots, {
      mode: 'files',
      query: args.query,
      cwd: ctx.cwd,
      spec,
      globs: [],
      followSymlinks: args.follow_symlinks,
      env: ctx.env,
    });
    const found = (await runForCaller(plan.job, ctx, budget)).flatMap((unit) => unit.paths).slice(0, budget);
    const truncated = ctx.limit !== null && found.length > ctx.limit;
    if (truncated) found.length = ctx.limit as number;
    return {
      command: 'search.files',
      backend: BACKEND,
      query: args.query,
      root: roots[0]?.given ?? '.',
      roots: roots.map((r) => r.given),
      match_count: found.length,
      files: found,
      truncated,
    };
  },
});
