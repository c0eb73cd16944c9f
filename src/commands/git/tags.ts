import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, RootObject, type Static, Type } from '../../catalog/schema.js';
import { gitOrNull, READ_EFFECTS } from './run-git.js';
import { NOT_A_REPO_TEXT } from './shared.js';

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
  description:
    'List tags newest first (tag date for annotated tags, commit date for lightweight ones; equal dates fall back to ' +
    'version order). latest returns only the newest. tag_count counts the tags returned; the limit caps them and sets truncated.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [
    { description: 'All tags', arguments: {} },
    { description: 'Only the newest tag', arguments: { latest: true } },
  ],
  render: (o: Output) => {
    if (!o.in_git_repo) return NOT_A_REPO_TEXT;
    if (o.tags.length === 0) return 'no tags';
    return [...o.tags.map((t) => t.name), ...(o.truncated ? [`[showing the newest ${o.tag_count} tags]`] : [])].join('\n');
  },
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const cap = args.latest ? 1 : ctx.limit;
    // One extra tag past the limit tells whether anything was cut, without listing every tag.
    const count = cap === null ? [] : [`--count=${args.latest ? 1 : cap + 1}`];
    // With several --sort keys the last one is primary.
    const gitArgs = ['for-each-ref', '--sort=-v:refname', '--sort=-creatordate', '--format=%(refname:strip=2)', ...count, 'refs/tags'];
    const out = await gitOrNull(ctx, gitArgs);
    if (out === null) return { command: 'git.tags', in_git_repo: false, latest: args.latest, tag_count: 0, tags: [], truncated: false };
    const all = out.stdout
      .toString('utf8')
      .split('\n')
      .filter((name) => name !== '')
      .map((name) => ({ name }));
    const shown = cap === null ? all : all.slice(0, cap);
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
