import { lstat, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, RootObject, type Static, Type } from '../../catalog/schema.js';
import { displayPath } from '../search/display-path.js';
import { extractSymbols } from './extract.js';
import { lineCount } from '../../platform/text.js';
import { CTX_EFFECTS, capOf, FOLLOW_SYMLINKS, loadCounted, MAX_BYTES, PRESET, PRESETS, pacer, pathNotFound, SYMBOL } from './shared.js';
import { walkFiles } from './walk.js';

const input = RootObject({
  paths: Type.Array(Type.String({ minLength: 1 }), {
    default: [],
    description: 'Files or directories to pack (default: the working directory)',
  }),
  preset: PRESET,
  max_bytes: MAX_BYTES,
  follow_symlinks: FOLLOW_SYMLINKS,
});
const ITEM = Closed({
  path: Type.String(),
  kind: Type.Union([Type.Literal('file'), Type.Literal('directory')]),
  size_bytes: Type.Integer({ minimum: 0 }),
  line_count: Type.Integer({ minimum: 0 }),
  symbol_count: Type.Integer({ minimum: 0 }),
  symbols: Type.Array(SYMBOL),
});
const output = RootObject({
  command: Type.Literal('ctx.pack'),
  preset: Type.String(),
  roots: Type.Array(Type.String()),
  item_count: Type.Integer({ minimum: 0 }),
  file_count: Type.Integer({ minimum: 0 }),
  directory_count: Type.Integer({ minimum: 0 }),
  symbol_count: Type.Integer({ minimum: 0 }),
  skipped_binary_files: Type.Integer({ minimum: 0 }),
  skipped_large_files: Type.Integer({ minimum: 0 }),
  skipped_symlink_files: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
  items: Type.Array(ITEM),
});
type Output = Static<typeof output>;
type Item = Static<typeof ITEM>;

function render(o: Output): string {
  const lines = o.items.map((item) => {
    if (item.kind === 'directory') return `${item.path}/`;
    const preview = item.symbols.map((s) => s.name).join(', ');
    const more = item.symbol_count > item.symbols.length ? ', …' : '';
    return `${item.path}  ${item.line_count} lines, ${item.size_bytes} B${preview === '' ? '' : `  [${preview}${more}]`}`;
  });
  const skips = o.skipped_binary_files + o.skipped_large_files + o.skipped_symlink_files;
  lines.push(
    `${o.file_count} files, ${o.directory_count} directories, ${o.symbol_count} symbols` +
      (skips > 0 ? `; skipped ${o.skipped_binary_files} binary, ${o.skipped_large_files} large, ${o.skipped_symlink_files} symlinks` : '') +
      (o.truncated ? ` [truncated at ${o.item_count} items]` : ''),
  );
  return lines.join('\n');
}

export const pack = defineCommand({
  id: 'ctx.pack',
  title: 'Pack a project inventory',
  description:
    'A bounded inventory of files and directories under the given paths, walked with the search ignore rules (.gitignore, .ignore, hidden files): per file its size, line count, symbol count and the first few symbols. Directories are listed when they hold a listed file. Binary (NUL byte or not UTF-8), oversize and symlinked files are counted as skips, never failures. The walk stops at the limit (default from the preset) and sets truncated.',
  inputSchema: input,
  outputSchema: output,
  effects: CTX_EFFECTS,
  examples: [
    { description: 'Inventory of the project', arguments: {} },
    { description: 'A short summary of src and test', arguments: { paths: ['src', 'test'], preset: 'summary' } },
  ],
  cli: { positionals: ['paths'] },
  render,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const preset = PRESETS[args.preset];
    const cap = capOf(args.preset, ctx.limit);
    const given = args.paths.length === 0 ? ['.'] : args.paths;
    const out: Output = {
      command: 'ctx.pack',
      preset: args.preset,
      roots: given,
      item_count: 0,
      file_count: 0,
      directory_count: 0,
      symbol_count: 0,
      skipped_binary_files: 0,
      skipped_large_files: 0,
      skipped_symlink_files: 0,
      truncated: false,
      items: [],
    };
    const push = (item: Item): boolean => {
      if (out.items.length >= cap) {
        out.truncated = true;
        return false;
      }
      out.items.push(item);
      if (item.kind === 'directory') out.directory_count += 1;
      else {
        out.file_count += 1;
        out.symbol_count += item.symbol_count;
      }
      return true;
    };
    /** The item for a text file, or null for a skipped one (counted). */
    const fileItem = (absolute: string, shown: string): Item | null => {
      const loaded = loadCounted(absolute, args.max_bytes, out);
      if (loaded === null) return null;
      const found = extractSymbols(absolute, loaded.text);
      return {
        path: shown,
        kind: 'file',
        size_bytes: loaded.size,
        line_count: lineCount(loaded.text),
        symbol_count: found.length,
        symbols: found.slice(0, preset.previews),
      };
    };
    const absolutes: string[] = [];
    for (const path of given) {
      const absolute = isAbsolute(path) ? path : resolve(ctx.cwd, path);
      if (!(await lstat(absolute).catch(() => undefined))) throw pathNotFound(path);
      absolutes.push(absolute);
    }
    roots: for (const absolute of absolutes) {
      const link = await lstat(absolute);
      if (link.isSymbolicLink() && !args.follow_symlinks) {
        out.skipped_symlink_files += 1;
        continue;
      }
      const info = link.isSymbolicLink() ? await stat(absolute).catch(() => undefined) : link;
      if (!info) continue;
      if (info.isFile()) {
        const item = fileItem(absolute, displayPath(ctx.cwd, absolute));
        if (item !== null && !push(item)) break;
        continue;
      }
      if (!info.isDirectory()) continue;
      const shownRoot = displayPath(ctx.cwd, absolute);
      // Directories appear before their first listed file, once each (walk order is depth-first by name).
      const listedDirs = new Set<string>();
      const counters = { symlinks: 0 };
      const pace = pacer(ctx.signal);
      try {
        for await (const entry of walkFiles(
          absolute,
          { followSymlinks: args.follow_symlinks, env: ctx.env, signal: ctx.signal },
          counters,
        )) {
          const shown = shownRoot === '.' ? entry.relative : `${shownRoot}/${entry.relative}`;
          const item = fileItem(entry.absolute, shown);
          if (item !== null) {
            // The file's directories that are not listed yet go just before it.
            const parts = entry.relative.split('/');
            for (let i = 1; i < parts.length; i += 1) {
              const dir = parts.slice(0, i).join('/');
              if (listedDirs.has(dir)) continue;
              listedDirs.add(dir);
              const dirShown = shownRoot === '.' ? dir : `${shownRoot}/${dir}`;
              if (!push({ path: dirShown, kind: 'directory', size_bytes: 0, line_count: 0, symbol_count: 0, symbols: [] })) break roots;
            }
            if (!push(item)) break roots;
          }
          await pace();
        }
      } finally {
        out.skipped_symlink_files += counters.symlinks;
      }
    }
    if (ctx.signal.aborted) throw ctx.signal.reason;
    out.item_count = out.items.length;
    return out;
  },
});
