import { defineCommand } from '../../catalog/descriptor.js';
import { Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { READ_EFFECTS, gitOrNull } from './run-git.js';

const input = RootObject({ path: Type.Optional(Type.String({ minLength: 1, description: 'Limit the diff to this path' })) });
const output = RootObject({
  command: Type.Literal('git.diff'),
  in_git_repo: Type.Boolean(),
  path_filter: Nullable(Type.String()),
  line_count: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
  diff: Type.String(),
});
type Output = Static<typeof output>;

export const diff = defineCommand({
  id: 'git.diff',
  title: 'Unstaged diff',
  description:
    'Show the unstaged diff of the working tree (raw unified diff, never coloured), optionally for one path; the limit caps lines.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [
    { description: 'The whole unstaged diff', arguments: {} },
    { description: 'Diff of one file', arguments: { path: 'src/main.ts' } },
  ],
  render: (o: Output) =>
    o.in_git_repo ? o.diff + (o.truncated ? `\n[truncated after ${o.line_count} lines]` : '') : 'not a git repository',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gitArgs = ['diff', '--no-color', '--no-ext-diff', ...(args.path ? ['--', args.path] : [])];
    const bytes = await gitOrNull(ctx, gitArgs);
    const pathFilter = args.path ?? null;
    if (bytes === null)
      return { command: 'git.diff', in_git_repo: false, path_filter: pathFilter, line_count: 0, truncated: false, diff: '' };
    const text = bytes.toString('utf8');
    const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
    const shown = ctx.limit === null ? lines : lines.slice(0, ctx.limit);
    return {
      command: 'git.diff',
      in_git_repo: true,
      path_filter: pathFilter,
      line_count: shown.length,
      truncated: shown.length < lines.length,
      diff: shown.join('\n'),
    };
  },
});
