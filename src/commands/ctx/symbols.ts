import { lstat, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, RootObject, type Static, Type } from '../../catalog/schema.js';
import { displayPath } from '../search/display-path.js';
import { extractSymbols } from './extract.js';
import { languageOf } from './languages.js';
import { CTX_EFFECTS, capOf, FOLLOW_SYMLINKS, loadCounted, MAX_BYTES, PRESET, PRESETS, pacer, pathNotFound, SYMBOL } from './shared.js';
import { walkFiles } from './walk.js';

const input = RootObject({
  path: Type.String({ minLength: 1, description: 'File or directory to scan, relative to the working directory' }),
  preset: PRESET,
  max_bytes: MAX_BYTES,
  follow_symlinks: FOLLOW_SYMLINKS,
});
const FILE = Closed({ path: Type.String(), symbol_count: Type.Integer({ minimum: 0 }), symbols: Type.Array(SYMBOL) });
const output = RootObject({
  command: Type.Literal('ctx.symbols'),
  preset: Type.String(),
  root: Type.String(),
  file_count: Type.Integer({ minimum: 0 }),
  symbol_count: Type.Integer({ minimum: 0 }),
  skipped_binary_files: Type.Integer({ minimum: 0 }),
  skipped_large_files: Type.Integer({ minimum: 0 }),
  skipped_symlink_files: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
  files: Type.Array(FILE),
});
type Output = Static<typeof output>;

function render(o: Output): string {
  const lines: string[] = [];
  for (const file of o.files) {
    lines.push(`${file.path} (${file.symbol_count})`);
    for (const s of file.symbols) lines.push(`  ${String(s.line).padStart(5)} ${s.kind} ${s.name}`);
  }
  const skips = o.skipped_binary_files + o.skipped_large_files + o.skipped_symlink_files;
  lines.push(
    `${o.symbol_count} symbols in ${o.file_count} files${skips > 0 ? `, ${skips} skipped` : ''}${o.truncated ? ' [truncated]' : ''}`,
  );
  return lines.join('\n');
}

export const symbols = defineCommand({
  id: 'ctx.symbols',
  title: 'Symbols of files',
  description:
    'List the definitions (functions, classes, methods, types, headings, keys, targets …) per file with {kind, line, name}, found by per-language patterns for about thirty languages. A directory is walked with the search ignore rules; files in a language without patterns are passed over, binary, oversize and symlinked files are counted as skips. Only files with at least one symbol are listed; symbol_count is the total, symbols holds at most the preset per-file count. The limit (default from the preset) caps the files scanned.',
  inputSchema: input,
  outputSchema: output,
  effects: CTX_EFFECTS,
  examples: [
    { description: 'Symbols of one file', arguments: { path: 'src/main.ts' } },
    { description: 'Symbols under src with the larger debug caps', arguments: { path: 'src', preset: 'debug' } },
  ],
  cli: { positionals: ['path'] },
  render,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const preset = PRESETS[args.preset];
    const cap = capOf(args.preset, ctx.limit);
    const absolute = isAbsolute(args.path) ? args.path : resolve(ctx.cwd, args.path);
    const link = await lstat(absolute).catch(() => undefined);
    if (!link) throw pathNotFound(args.path);
    const out: Output = {
      command: 'ctx.symbols',
      preset: args.preset,
      root: args.path,
      file_count: 0,
      symbol_count: 0,
      skipped_binary_files: 0,
      skipped_large_files: 0,
      skipped_symlink_files: 0,
      truncated: false,
      files: [],
    };
    const take = (path: string, shown: string): boolean => {
      if (languageOf(path) === undefined) return true;
      if (out.file_count >= cap) {
        out.truncated = true;
        return false;
      }
      const loaded = loadCounted(path, args.max_bytes, out);
      if (loaded === null) return true;
      out.file_count += 1;
      const found = extractSymbols(path, loaded.text);
      out.symbol_count += found.length;
      if (found.length > 0) {
        out.files.push({ path: shown, symbol_count: found.length, symbols: found.slice(0, preset.symbolsPerFile) });
      }
      return true;
    };
    let target = link;
    if (link.isSymbolicLink()) {
      if (!args.follow_symlinks) {
        out.skipped_symlink_files += 1;
        return out;
      }
      target = await stat(absolute);
    }
    if (!target.isDirectory()) {
      if (target.isFile()) take(absolute, displayPath(ctx.cwd, absolute));
      return out;
    }
    const counters = { symlinks: 0 };
    const pace = pacer(ctx.signal);
    for await (const file of walkFiles(absolute, { followSymlinks: args.follow_symlinks, env: ctx.env, signal: ctx.signal }, counters)) {
      if (!take(file.absolute, displayPath(ctx.cwd, file.absolute))) break;
      await pace();
    }
    if (ctx.signal.aborted) throw ctx.signal.reason;
    out.skipped_symlink_files = counters.symlinks;
    return out;
  },
});
