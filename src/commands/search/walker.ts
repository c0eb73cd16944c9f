/**
 * One deterministic, ignore-aware walk shared by search text and search files: sorted names,
 * hidden entries and .git skipped, ignore files honoured, symlinks skipped (and counted) unless
 * followed, and followed directories never entered twice on one path.
 *
 * Speed: one readdir (with file types) per directory and no per-file stat (only followed symlinks
 * are stat'ed). Directories are listed (with their ignore files read and entries filtered) ahead
 * of the walk, up to AHEAD listings, so the walk is not a chain of one round trip per directory;
 * the order of the results does not depend on it. realpath is only called when following symlinks.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { sep } from 'node:path';
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

interface Item {
  absolute: string;
  relative: string;
  isDir: boolean;
  /** The directory's listing, when fetched ahead of the walk. */
  listing?: Promise<Listing | null>;
}

interface Listing {
  /** Entries that survive the hidden, type, symlink and ignore filters, sorted by name. */
  items: Item[];
  /** Ignore layers in force inside the directory. */
  active: Layer[];
  /** Symlinks skipped in the directory (counted when it is walked, not when listed ahead). */
  symlinks: number;
}

/** Directory listings fetched ahead of the walk and not yet walked (bounds memory). */
const AHEAD = 256;

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const child = (dir: string, name: string) => (dir.endsWith(sep) ? dir + name : dir + sep + name);

/** Yields the files under `root` (a directory) in a stable order. */
export async function* walkFiles(root: string, options: WalkOptions, counters: WalkCounters): AsyncGenerator<WalkedFile> {
  for await (const batch of walkBatches(root, options, counters)) yield* batch;
}

/** The files under `root` in walkFiles order, in batches (consecutive files of one directory). */
export async function* walkBatches(root: string, options: WalkOptions, counters: WalkCounters): AsyncGenerator<WalkedFile[]> {
  const context = await inheritedRules(root, options.env);
  const inRepo = context.repoRoot !== null;
  const visited = options.followSymlinks ? new Set<string>([await realpath(root).catch(() => root)]) : null;

  let ahead = 0;

  /** Lists and filters one directory, then starts listing its subdirectories (up to AHEAD). */
  async function list(dir: string, relDir: string, layers: Layer[]): Promise<Listing | null> {
    let entries: Dirent[];
    try {
      entries = (await readdir(dir, { withFileTypes: true })).sort(byName);
    } catch {
      // Unreadable directories are skipped, as ripgrep does.
      return null;
    }
    const names = new Set<string>();
    for (const e of entries) {
      if (e.name === '.gitignore' || e.name === '.ignore' || e.name === '.rgignore') names.add(e.name);
    }
    const own = names.size === 0 ? [] : await directoryLayers(dir, names, inRepo);
    const active = own.length > 0 ? [...layers, ...own] : layers;
    const items: Item[] = [];
    let symlinks = 0;
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const absolute = child(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        if (!options.followSymlinks) {
          symlinks += 1;
          continue;
        }
        const target = await stat(absolute).catch(() => undefined);
        if (!target) continue;
        isDir = target.isDirectory();
        isFile = target.isFile();
      }
      if (!isDir && !isFile) continue;
      if (isIgnored(active, absolute, isDir)) continue;
      items.push({ absolute, relative: relDir === '' ? entry.name : `${relDir}/${entry.name}`, isDir });
    }
    for (const item of items) {
      if (!item.isDir || ahead >= AHEAD || options.signal.aborted) continue;
      ahead += 1;
      item.listing = list(item.absolute, item.relative, active);
    }
    return { items, active, symlinks };
  }

  // Depth-first with an explicit stack (nested async generators cost a promise hop per level per
  // file); the files of one directory between two subdirectories are yielded as one batch.
  interface Frame {
    listed: Listing;
    next: number;
    /** realpath of the directory while it is on the path (following symlinks only). */
    real: string | null;
  }
  const stack: Frame[] = [];
  const enter = async (listing: Promise<Listing | null>, real: string | null) => {
    if (options.signal.aborted) throw options.signal.reason;
    const listed = await listing;
    if (listed === null) {
      if (real !== null) visited?.delete(real);
      return;
    }
    counters.skippedSymlinks += listed.symlinks;
    stack.push({ listed, next: 0, real });
  };
  await enter(list(root, '', context.inherited), null);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const items = frame.listed.items;
    const batch: WalkedFile[] = [];
    let descend: Item | null = null;
    while (frame.next < items.length) {
      const item = items[frame.next] as Item;
      frame.next += 1;
      if (item.isDir) {
        descend = item;
        break;
      }
      if (options.accept && !options.accept(item.relative)) continue;
      batch.push({ absolute: item.absolute, relative: item.relative });
    }
    if (batch.length > 0) yield batch;
    if (descend === null) {
      stack.pop();
      if (frame.real !== null) visited?.delete(frame.real);
      continue;
    }
    let pending = descend.listing;
    if (pending === undefined) pending = list(descend.absolute, descend.relative, frame.listed.active);
    else ahead -= 1;
    if (visited === null) {
      await enter(pending, null);
      continue;
    }
    const real = await realpath(descend.absolute).catch(() => descend.absolute);
    if (visited.has(real)) continue;
    visited.add(real);
    await enter(pending, real);
  }
}
