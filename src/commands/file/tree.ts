import type { Dirent } from 'node:fs';
import { readdir, realpath, stat as statPath } from 'node:fs/promises';
import { join } from 'node:path';
import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { fsError, resolvePath } from './load-text.js';
import { ENTRY_KIND, entryKind, FOLLOW_SYMLINKS, READ_EFFECTS } from './shared.js';

const input = RootObject({
  path: Type.String({ minLength: 1, maxLength: 4096, default: '.', description: 'Directory to list (default: the working directory)' }),
  depth: Type.Optional(Type.Integer({ minimum: 0, maximum: 4096, description: 'How deep to descend; 0 lists only the directory itself' })),
  follow_symlinks: FOLLOW_SYMLINKS,
});
const ENTRY = Closed({ depth: Type.Integer({ minimum: 0 }), kind: ENTRY_KIND, name: Type.String(), path: Type.String() });
const output = RootObject({
  command: Type.Literal('file.tree'),
  path: Type.String(),
  max_depth: Nullable(Type.Integer({ minimum: 0 })),
  entry_count: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
  entries: Type.Array(ENTRY),
});
type Output = Static<typeof output>;
type Entry = Static<typeof ENTRY>;

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export const tree = defineCommand({
  id: 'file.tree',
  title: 'Directory tree',
  description:
    'List a directory recursively in a stable order (names sorted, each directory followed by its contents). The root itself is entry 0 at depth 0; children start at depth 1. Symlinked directories are entered only with follow_symlinks, and never twice on one path (cycle-safe).',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [
    { description: 'Two levels of the project', arguments: { path: '.', depth: 2 } },
    { description: 'The src directory', arguments: { path: 'src' } },
  ],
  cli: { positionals: ['path'] },
  render: (o: Output) => {
    const lines = o.entries.map(
      (e) => `${'  '.repeat(e.depth)}${e.name}${e.kind === 'directory' ? '/' : e.kind === 'symlink' ? ' ->' : ''}`,
    );
    if (o.truncated) lines.push(`[truncated after ${o.entry_count} entries]`);
    return lines.join('\n');
  },
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const root = await resolvePath(ctx.cwd, args.path, args.follow_symlinks, 'DIRECTORY_READ_FAILED');
    if (!root.info.isDirectory()) {
      throw new AhError({
        code: 'PATH_INVALID_TYPE',
        message: `${args.path} is not a directory`,
        hint: "Use 'ah file stat' or 'ah file read' for files.",
      });
    }
    const maxDepth = args.depth ?? null;
    const limit = ctx.limit;
    const entries: Entry[] = [];
    let truncated = false;
    const push = (entry: Entry): boolean => {
      if (limit !== null && entries.length >= limit) {
        truncated = true;
        return false;
      }
      entries.push(entry);
      return true;
    };
    push({ depth: 0, kind: 'directory', name: args.path, path: args.path });

    const walk = async (dir: string, relDir: string, depth: number, ancestors: Set<string>): Promise<void> => {
      if (maxDepth !== null && depth > maxDepth) return;
      if (ctx.signal.aborted) throw ctx.signal.reason;
      let children: Dirent[];
      try {
        children = (await readdir(dir, { withFileTypes: true })).sort(byName);
      } catch (error) {
        // Only the root must be readable; an unreadable subdirectory (or one whose non-UTF-8
        // name cannot be spelled back) is listed but not entered.
        if (depth === 1) throw fsError(error, args.path, 'DIRECTORY_READ_FAILED');
        return;
      }
      for (const child of children) {
        if (truncated) return;
        const childRel = relDir === '' ? child.name : `${relDir}/${child.name}`;
        const shownPath = args.path === '.' ? childRel : `${args.path.replace(/\/+$/, '')}/${childRel}`;
        let kind = entryKind(child);
        const childAbs = join(dir, child.name);
        let descend = kind === 'directory';
        if (kind === 'symlink' && args.follow_symlinks) {
          const target = await statPath(childAbs).catch(() => undefined);
          if (target?.isDirectory()) {
            kind = 'directory';
            descend = true;
          } else if (target?.isFile()) kind = 'file';
        }
        if (!push({ depth, kind, name: child.name, path: shownPath })) return;
        if (!descend) continue;
        const real = await realpath(childAbs).catch(() => childAbs);
        if (ancestors.has(real)) continue;
        ancestors.add(real);
        await walk(childAbs, childRel, depth + 1, ancestors);
        ancestors.delete(real);
      }
    };
    await walk(root.absolute, '', 1, new Set([root.real]));
    return { command: 'file.tree', path: args.path, max_depth: maxDepth, entry_count: entries.length, truncated, entries };
  },
});
