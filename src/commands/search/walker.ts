/**
 * One deterministic, ignore-aware walk shared by search text and search files: sorted names,
 * hidden entries and .git skipped, ignore files honoured, symlinks skipped (and counted) unless
 * followed, and followed directories never entered twice on one path.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { directoryLayers, inheritedRules, isIgnored, type Layer } from './ignore-rules.js';

export interface WalkOptions {
  followSymlinks: boolean;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  /** Extra filter on the path relative to the walk root (globs). Directories are always entered. */
  accept?: (relativePath: string) => boolean;
}

export interface WalkCounters {
  skippedSymlinks: number;
}

export interface WalkedFile {
  absolute: string;
  /** Path relative to the walk root, forward slashes. */
  relative: string;
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const posix = (p: string) => (sep === '/' ? p : p.split(sep).join('/'));

/** Yields the files under `root` (a directory) in a stable order. */
export async function* walkFiles(root: string, options: WalkOptions, counters: WalkCounters): AsyncGenerator<WalkedFile> {
  const context = await inheritedRules(root, options.env);
  const inRepo = context.repoRoot !== null;
  const visited = new Set<string>([await realpath(root).catch(() => root)]);

  async function* visit(dir: string, layers: Layer[]): AsyncGenerator<WalkedFile> {
    if (options.signal.aborted) throw options.signal.reason;
    let entries: Dirent[];
    try {
      entries = (await readdir(dir, { withFileTypes: true })).sort(byName);
    } catch {
      // Unreadable directories are skipped, as ripgrep does.
      return;
    }
    const names = new Set(entries.map((e) => e.name));
    const own = await directoryLayers(dir, names, inRepo);
    const active = own.length > 0 ? [...layers, ...own] : layers;
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const absolute = join(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        if (!options.followSymlinks) {
          counters.skippedSymlinks += 1;
          continue;
        }
        const target = await stat(absolute).catch(() => undefined);
        if (!target) continue;
        isDir = target.isDirectory();
        isFile = target.isFile();
      }
      if (!isDir && !isFile) continue;
      if (isIgnored(active, absolute, isDir)) continue;
      if (isDir) {
        const real = await realpath(absolute).catch(() => absolute);
        if (visited.has(real)) continue;
        visited.add(real);
        yield* visit(absolute, active);
        visited.delete(real);
        continue;
      }
      const rel = posix(relative(root, absolute));
      if (options.accept && !options.accept(rel)) continue;
      yield { absolute, relative: rel };
    }
  }

  yield* visit(root, context.inherited);
}
