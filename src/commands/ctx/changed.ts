import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { parsePorcelainV2 } from '../git/porcelain.js';
import { gitOrNull, READ_EFFECTS } from '../git/run-git.js';

const input = RootObject({});
const ENTRY = Closed({ path: Type.String(), old_path: Nullable(Type.String()), status: Type.String() });
const output = RootObject({
  command: Type.Literal('ctx.changed'),
  in_git_repo: Type.Boolean(),
  changed_count: Type.Integer({ minimum: 0 }),
  entries: Type.Array(ENTRY),
});
type Output = Static<typeof output>;

function render(o: Output): string {
  if (!o.in_git_repo) return 'not a git repository';
  if (o.changed_count === 0) return 'no changes';
  // A newline in a file name is quoted so one entry stays one line.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we look for.
  const show = (p: string) => (/[\u0000-\u001f\u007f]/.test(p) ? JSON.stringify(p) : p);
  return o.entries.map((e) => `${e.status.padEnd(12)} ${e.old_path === null ? '' : `${show(e.old_path)} -> `}${show(e.path)}`).join('\n');
}

export const changed = defineCommand({
  id: 'ctx.changed',
  title: 'Changed files for context',
  description:
    'The set of paths that differ from HEAD (staged, unstaged and untracked), from one git status snapshot: the files to look at first. Status is one of modified, added, deleted, renamed, copied (both keep old_path), type_changed, unmerged, untracked. Outside a repository in_git_repo is false.',
  inputSchema: input,
  outputSchema: output,
  effects: { ...READ_EFFECTS, impact: 'Runs a read-only git status in the repository; changes nothing.' },
  examples: [{ description: 'What changed in the working tree', arguments: {} }],
  render,
  async run(_args: Static<typeof input>, ctx): Promise<Output> {
    const out = await gitOrNull(ctx, ['status', '--porcelain=v2', '-z', '--untracked-files=all']);
    if (out === null) return { command: 'ctx.changed', in_git_repo: false, changed_count: 0, entries: [] };
    const entries = parsePorcelainV2(out.stdout).entries.map((e) => ({ path: e.path, old_path: e.old_path, status: e.status }));
    return { command: 'ctx.changed', in_git_repo: true, changed_count: entries.length, entries };
  },
});
