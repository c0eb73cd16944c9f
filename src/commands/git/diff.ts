import { defineCommand } from '../../catalog/descriptor.js';
import { Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { gitOrNull, READ_EFFECTS } from './run-git.js';
import { MAX_PATH_LENGTH, NOT_A_REPO_TEXT } from './shared.js';

const input = RootObject({
  path: Type.Optional(
    Type.String({ minLength: 1, maxLength: MAX_PATH_LENGTH, description: 'Only this file or directory (relative to cwd)' }),
  ),
});
const output = RootObject({
  command: Type.Literal('git.diff'),
  in_git_repo: Type.Boolean(),
  path_filter: Nullable(Type.String()),
  line_count: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
  diff: Type.String(),
});
type Output = Static<typeof output>;

/** Bytes of diff read at most; past this the diff is cut at a line boundary and marked truncated. */
const MAX_DIFF_BYTES = 32 * 1024 * 1024;

export const diff = defineCommand({
  id: 'git.diff',
  title: 'Unstaged diff',
  description:
    'Show the unstaged changes (work tree against the index) as a raw unified diff, never coloured and without external ' +
    'diff or textconv drivers, optionally for one path. line_count counts the lines returned; the limit caps lines.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [
    { description: 'The whole unstaged diff', arguments: {} },
    { description: 'Diff of one file', arguments: { path: 'src/main.ts' } },
  ],
  render: (o: Output) => {
    if (!o.in_git_repo) return NOT_A_REPO_TEXT;
    if (o.diff === '') return 'no unstaged changes';
    return o.diff + (o.truncated ? `\n[truncated after ${o.line_count} lines]` : '');
  },
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const pathFilter = args.path ?? null;
    const gitArgs = ['diff', '--no-color', '--no-ext-diff', '--no-textconv', ...(pathFilter === null ? [] : ['--', pathFilter])];
    const out = await gitOrNull(ctx, gitArgs, { maxBytes: MAX_DIFF_BYTES });
    if (out === null)
      return { command: 'git.diff', in_git_repo: false, path_filter: pathFilter, line_count: 0, truncated: false, diff: '' };
    const text = out.stdout.toString('utf8');
    const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
    // A byte cut leaves a partial last line: drop it rather than show half a line.
    if (out.stdoutTruncated) lines.pop();
    const shown = ctx.limit === null ? lines : lines.slice(0, ctx.limit);
    return {
      command: 'git.diff',
      in_git_repo: true,
      path_filter: pathFilter,
      line_count: shown.length,
      truncated: out.stdoutTruncated || shown.length < lines.length,
      diff: shown.join('\n'),
    };
  },
});
