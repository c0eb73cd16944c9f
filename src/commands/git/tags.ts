import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, RootObject, type Static, Type } from '../../catalog/schema.js';
import { gitOrNull, READ_EFFECTS } from './run-git.js';

const input = RootObject({ latest: Type.Boolean({ default: false, description: 'Only the newest tag' }) });
const output = RootObject({
  command: Type.Literal('git.tags'),
  in_git_repo: Type.Boolean(),
  latest: Type.Boolean(),
  tag_count: Type.Integer({ minimum: 0 }),
  tags: Type.Array(Closed({ name: Type.String() })),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const tags = defineCommand({
  id: 'git.tags',
  title: 'List tags',
  description: 'List tags, newest first (by creation date).',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [
    { description: 'All tags', arguments: {} },
    { description: 'Only the newest tag', arguments: { latest: true } },
  ],
  render: (o: Output) => (o.in_git_repo ? o.tags.map((t) => t.name).join('\n') || 'no tags' : 'not a git repository'),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const bytes = await gitOrNull(ctx, ['tag', '--list', '--sort=-creatordate', '--format=%(refname:strip=2)']);
    if (bytes === null) return { command: 'git.tags', in_git_repo: false, latest: args.latest, tag_count: 0, tags: [], truncated: false };
    const all = bytes
      .toString('utf8')
      .split('\n')
      .filter((t) => t !== '')
      .map((name) => ({ name }));
    const cap = args.latest ? 1 : (ctx.limit ?? all.length);
    const shown = all.slice(0, cap);
    return {
      command: 'git.tags',
      in_git_repo: true,
      latest: args.latest,
      tag_count: shown.length,
      tags: shown,
      truncated: !args.latest && shown.length < all.length,
    };
  },
});
