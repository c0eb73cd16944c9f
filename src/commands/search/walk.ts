/**
 * The ignore-aware walk, synchronous: the search engine (engine.ts) runs it on worker threads and,
 * from the CLI, on the main thread. Names are visited in sorted order; hidden entries are skipped;
 * .gitignore (inside a git repository only), .ignore and .rgignore apply with ripgrep's precedence
 * (later layers, deeper or more specific, decide over earlier ones); symlinks are skipped and
 * counted unless followed, and a followed directory is never entered twice on one path.
 */
import { type Dirent, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import ignore from 'ignore';
import { dirPrefix } from './display-path.js';

const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore'] as const;

/**
 * The per-path test of `ignore` 7.0.17 (its rule manager's `test(path, 'regex')`): the verdict of a
 * file's own patterns on one path. The public `test` also counts a path under a directory the same
 * rules ignore as ignored and caches every path it sees; ripgrep decides each directory once with
 * every layer (so a later layer may take back a directory an earlier one ignores, and a named root
 * is searched whatever its parents' rules say) and tests the entries inside on their own. That
 * verdict exists only here: emulating it through the public API (a negation of each taken-back
 * directory) doubled the cost of walking a tree under a repository's .gitignore (45 -> 93 ms,
 * 4,000 files). So the version is pinned exactly in package.json, and walk.test.ts fails if the
 * shape below changes.
 */
export type PathTest = (path: string, mode: 'regex') => { ignored: boolean; unignored: boolean };

/** One ignore file's rules, anchored at the directory that holds it; `text` rebuilds it on another thread. */
export interface Layer {
  base: string;
  /** `base` with a trailing separator: the start of every path the layer's rules can judge. */
  prefix: string;
  text: string;
  rules: { test: PathTest };
}

/** The rule manager inside an `ignore` instance (see PathTest). */
export function ruleManager(rules: ReturnType<typeof ignore>): { test: PathTest } {
  const manager = (rules as unknown as { _rules?: { test?: unknown } })._rules;
  if (typeof manager?.test !== 'function') throw new Error('the ignore package is not the pinned 7.0.17 (no _rules.test)');
  return manager as { test: PathTest };
}

export interface WalkItem {
  absolute: string;
  relative: string;
  isDir: boolean;
}

/** What the walk of one directory needs to know about its surroundings. */
export interface WalkScope {
  /** Inside a git repository (.gitignore files count only there). */
  inRepo: boolean;
  followSymlinks: boolean;
  /** Symlinks skipped so far (the walk adds to it). */
  symlinks: number;
}

/** A text file's contents, null when unreadable. */
function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The nearest directory at or above `dir` that holds a `.git` entry. */
function repoRootOf(dir: string): string | null {
  for (let current = dir; ; current = dirname(current)) {
    try {
      statSync(join(current, '.git'));
      return current;
    } catch {
      if (dirname(current) === current) return null;
    }
  }
}

/** The last core.excludesFile value in one git config text, unquoted; null when it sets none. */
export function excludesSetting(text: string): string | null {
  let configured: string | null = null;
  let inCore = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) inCore = /^\[core\]/i.test(line);
    else if (inCore) {
      const match = /^excludesfile\s*=\s*(.+)$/i.exec(line);
      if (match) configured = (match[1] as string).trim().replace(/^"(.*)"$/, '$1');
    }
  }
  return configured;
}

/** git's global excludes file: core.excludesFile from the user's config, else $XDG_CONFIG_HOME/git/ignore. */
function globalExcludes(env: Readonly<Record<string, string | undefined>>): string | null {
  const home = env.HOME || env.USERPROFILE;
  const xdg = env.XDG_CONFIG_HOME || (home ? join(home, '.config') : undefined);
  let configured: string | null = null;
  for (const file of [xdg ? join(xdg, 'git', 'config') : null, home ? join(home, '.gitconfig') : null]) {
    const text = file === null ? null : readText(file);
    if (text !== null) configured = excludesSetting(text) ?? configured;
  }
  if (configured) return configured.startsWith('~/') && home ? join(home, configured.slice(2)) : configured;
  return xdg ? join(xdg, 'git', 'ignore') : null;
}

/**
 * Whether an ignore file's text holds no pattern: only blank lines and comments (git writes
 * .git/info/exclude that way in every repository). Such a layer can never decide anything, and
 * testing every entry of the walk against it costs a path slice and a call per entry.
 */
export function holdsNoPattern(text: string): boolean {
  for (const line of text.split('\n')) if (line.trim() !== '' && !line.startsWith('#')) return false;
  return true;
}

/** A layer from an ignore file's text. */
export function makeLayer(base: string, text: string): Layer {
  return { base, prefix: dirPrefix(base), text, rules: ruleManager(ignore({ allowRelativePaths: true }).add(text)) };
}

/** Adds the layer of the ignore file at `path`, anchored at `base`, when it is readable and holds a pattern. */
function addFileLayer(layers: Layer[], base: string, path: string | null): void {
  const text = path === null ? null : readText(path);
  if (text !== null && !holdsNoPattern(text)) layers.push(makeLayer(base, text));
}

/** The layers of the ignore files among `names` in `dir`. */
function directoryLayers(dir: string, names: ReadonlySet<string>, inRepo: boolean): Layer[] {
  const layers: Layer[] = [];
  for (const name of IGNORE_FILES) {
    if (!names.has(name) || (name === '.gitignore' && !inRepo)) continue;
    addFileLayer(layers, dir, join(dir, name));
  }
  return layers;
}

/**
 * The rules in force at the top of `root` from outside it: git's global excludes and
 * .git/info/exclude (inside a repository), and the ignore files of the directories between the
 * repository root (or the file system root) and `root`.
 */
export function inheritedLayers(root: string, env: Readonly<Record<string, string | undefined>>): { inRepo: boolean; layers: Layer[] } {
  const repoRoot = repoRootOf(root);
  const layers: Layer[] = [];
  if (repoRoot) {
    addFileLayer(layers, repoRoot, globalExcludes(env));
    addFileLayer(layers, repoRoot, join(repoRoot, '.git', 'info', 'exclude'));
  }
  const parents: string[] = [];
  for (let current = dirname(root); current !== root; current = dirname(current)) {
    if (repoRoot !== null && relative(repoRoot, current).startsWith('..')) break;
    parents.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const dir of parents) layers.push(...directoryLayers(dir, new Set(IGNORE_FILES), repoRoot !== null));
  return { inRepo: repoRoot !== null, layers };
}

/** Whether the layers ignore a path: the last layer with a verdict on it decides. */
function isIgnored(layers: readonly Layer[], absolute: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, prefix, rules } of layers) {
    const rel = absolute.startsWith(prefix) ? absolute.slice(prefix.length) : relative(base, absolute);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) continue;
    const result = rules.test((sep === '/' ? rel : rel.split(sep).join('/')) + (isDir ? '/' : ''), 'regex');
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Lists and filters one directory: entries sorted by name that survive the hidden, type, symlink
 * and ignore filters, and the layers in force inside it. Null when unreadable.
 */
export function listSearchable(
  dir: string,
  relDir: string,
  layers: Layer[],
  scope: WalkScope,
): { items: WalkItem[]; active: Layer[] } | null {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort(byName);
  } catch {
    return null;
  }
  // Most directories hold no ignore file: no set for them.
  let names: Set<string> | null = null;
  for (const e of entries) {
    if (e.name !== '.gitignore' && e.name !== '.ignore' && e.name !== '.rgignore') continue;
    names ??= new Set();
    names.add(e.name);
  }
  const own = names === null ? [] : directoryLayers(dir, names, scope.inRepo);
  const active = own.length > 0 ? [...layers, ...own] : layers;
  const items: WalkItem[] = [];
  const prefix = dirPrefix(dir);
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const absolute = prefix + entry.name;
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      if (!scope.followSymlinks) {
        scope.symlinks += 1;
        continue;
      }
      try {
        const target = statSync(absolute);
        isDir = target.isDirectory();
        isFile = target.isFile();
      } catch {
        continue;
      }
    }
    if (!isDir && !isFile) continue;
    if (isIgnored(active, absolute, isDir)) continue;
    items.push({ absolute, relative: relDir === '' ? entry.name : `${relDir}/${entry.name}`, isDir });
  }
  return { items, active };
}

/** The real path of a directory, or the path itself when it cannot be resolved. */
export function realDirectory(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Walks the directory `dir` (an item of its parent's listing, `layers` the parent's) depth-first
 * in sorted order, handing files to `sink` in batches of consecutive files (absolute and
 * root-relative paths; the sink returns false to stop the walk). `ancestors` holds the real paths of the
 * directories above it (followSymlinks only). `stopped` is polled once per directory. Returns
 * false when stopped or when the sink asked to stop.
 */
export function walkSubtree(
  dir: WalkItem,
  layers: Layer[],
  scope: WalkScope,
  ancestors: Set<string> | null,
  sink: (absolute: string[], relative: string[]) => boolean,
  stopped: () => boolean,
): boolean {
  let absolutes: string[] = [];
  let relatives: string[] = [];
  interface Frame {
    items: WalkItem[];
    active: Layer[];
    next: number;
    real: string | null;
  }
  const stack: Frame[] = [];
  const flush = (): boolean => {
    if (absolutes.length === 0) return true;
    const more = sink(absolutes, relatives);
    absolutes = [];
    relatives = [];
    return more;
  };
  const enter = (item: WalkItem, parentLayers: Layer[]): void => {
    let real: string | null = null;
    if (ancestors !== null) {
      real = realDirectory(item.absolute);
      if (ancestors.has(real)) return;
      ancestors.add(real);
    }
    const listed = listSearchable(item.absolute, item.relative, parentLayers, scope);
    if (listed === null) {
      if (real !== null) ancestors?.delete(real);
      return;
    }
    stack.push({ items: listed.items, active: listed.active, next: 0, real });
  };
  enter(dir, layers);
  while (stack.length > 0) {
    if (stopped()) return false;
    const frame = stack[stack.length - 1] as Frame;
    let descend: WalkItem | null = null;
    while (frame.next < frame.items.length) {
      const item = frame.items[frame.next] as WalkItem;
      frame.next += 1;
      if (item.isDir) {
        descend = item;
        break;
      }
      absolutes.push(item.absolute);
      relatives.push(item.relative);
    }
    if (descend === null) {
      stack.pop();
      if (frame.real !== null) ancestors?.delete(frame.real);
      continue;
    }
    enter(descend, frame.active);
    // Batches go out at directory boundaries once big enough (the sink decides how big).
    if (absolutes.length >= 16 && !flush()) return false;
  }
  return flush();
}
