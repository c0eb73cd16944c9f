import { defineCommand } from '../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../catalog/schema.js';
import { READ_EFFECTS } from './run-git.js';
import { CHANGED_ENTRY, STATUS_WORDS, statusSnapshot } from './shared.js';

const input = RootObject({});
const output = RootObject({
  command: Type.Literal('git.changed'),
  in_git_repo: Type.Boolean(),
  changed_count: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
  entries: Type.Array(CHANGED_ENTRY),
});
type Output = Static<typeof output>;

export const changed = defineCommand({
  id: 'git.changed',
  title: 'Changed files',
  description: `List changed, staged and untracked files; renames keep old_path. ${STATUS_WORDS}`,
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [{ description: 'What changed in the working tree', arguments: {} }],
  render: (o: Output) => {
    if (!o.in_git_repo) return 'not a git repository';
    if (o.entries.length === 0) return 'no changes';
    const lines = o.entries.map((e) => `${e.status.padEnd(12)} ${e.old_path ? `${e.old_path} -> ` : ''}${e.path}`);
    if (o.truncated) lines.push(`[showing ${o.entries.length} of ${o.changed_count}]`);
    return lines.join('\n');
  },
  async run(_args: Static<typeof input>, ctx): Promise<Output> {
    const snapshot = await statusSnapshot(ctx);
    if (snapshot === null) return { command: 'git.changed', in_git_repo: false, changed_count: 0, truncated: false, entries: [] };
    const all = snapshot.entries.map((e) => ({ path: e.path, old_path: e.old_path, status: e.status }));
    const entries = ctx.limit === null ? all : all.slice(0, ctx.limit);
    return { command: 'git.changed', in_git_repo: true, changed_count: all.length, truncated: entries.length < all.length, entries };
  },
});
