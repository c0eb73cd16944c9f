import { defineCommand } from '../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../catalog/schema.js';
import { READ_EFFECTS } from './run-git.js';
import { CHANGED_ENTRY, displayPath, NOT_A_REPO_TEXT, STATUS_WORDS, statusSnapshot } from './shared.js';

const input = RootObject({});
const output = RootObject({
  command: Type.Literal('git.changed'),
  in_git_repo: Type.Boolean(),
  changed_count: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
  entries: Type.Array(CHANGED_ENTRY),
});
type Output = Static<typeof output>;

/** Two-column code for the text view, in the spirit of `git status --short`. */
function code(status: string): string {
  return status === 'unmerged' ? 'UU' : status === 'untracked' ? '??' : `${status.charAt(0).toUpperCase()} `;
}

function render(o: Output): string {
  if (!o.in_git_repo) return NOT_A_REPO_TEXT;
  if (o.changed_count === 0) return 'no changes';
  const lines = o.entries.map(
    (e) => `${code(e.status)} ${e.old_path === null ? '' : `${displayPath(e.old_path)} -> `}${displayPath(e.path)}`,
  );
  if (o.truncated) lines.push(`[showing ${o.entries.length} of ${o.changed_count} changed paths]`);
  return lines.join('\n');
}

export const changed = defineCommand({
  id: 'git.changed',
  title: 'Changed files',
  description:
    'List the paths that differ from HEAD: staged, unstaged and untracked (one entry per path, in git order). ' +
    `${STATUS_WORDS} changed_count is the total; the limit caps entries and sets truncated.`,
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [{ description: 'What changed in the working tree', arguments: {} }],
  render,
  async run(_args: Static<typeof input>, ctx): Promise<Output> {
    const snapshot = await statusSnapshot(ctx);
    if (snapshot === null) return { command: 'git.changed', in_git_repo: false, changed_count: 0, truncated: false, entries: [] };
    const all = snapshot.entries.map((e) => ({ path: e.path, old_path: e.old_path, status: e.status }));
    const entries = ctx.limit === null ? all : all.slice(0, ctx.limit);
    return { command: 'git.changed', in_git_repo: true, changed_count: all.length, truncated: entries.length < all.length, entries };
  },
});
