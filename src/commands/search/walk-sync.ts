/**
 * The ignore-aware walk as synchronous functions, run by the search engine (engine.ts) on worker
 * threads and, from the CLI, on the main thread. Same semantics as walker.ts: sorted names, hidden
 * entries skipped, .gitignore/.ignore/.rgignore with ripgrep's precedence (ignore-rules.ts),
 * symlinks skipped and counted unless followed, followed directories never entered twice on one
 * path. File system and path primitives come in as `d`, so tests can swap them.
 */

export interface WalkSyncDeps {
  readdirSync(path: string, options: { withFileTypes: true }): WalkDirent[];
  readFileSync(path: string, encoding: 'utf8'): string;
  statSync(path: string): { isDirectory(): boolean; isFile(): boolean };
  realpathSync(path: string): string;
  join(...parts: string[]): string;
  dirname(path: string): string;
  relative(from: string, to: string): string;
  isAbsolute(path: string): boolean;
  sep: string;
  /** The `ignore` package's factory. */
  ignore: (options: { allowRelativePaths: boolean }) => { add(text: string): unknown; test(path: string): SelfResult };
}

export interface WalkDirent {
  name: string;
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
}

interface SelfResult {
  ignored: boolean;
  unignored: boolean;
}

/** One ignore file's rules, anchored at the directory that holds it. `text` rebuilds it elsewhere. */
export interface SyncLayer {
  base: string;
  text: string;
  rules: { test(path: string): SelfResult; _rules?: { test?: (path: string, mode: string) => SelfResult } };
}

export interface WalkSyncOptions {
  followSymlinks: boolean;
  env: Readonly<Record<string, string | undefined>>;
}

/** Receives consecutive files (absolute and root-relative paths); returns false to stop the walk. */
export type WalkSink = (absolute: string[], relative: string[]) => boolean;

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

/** Reads a text file, null when unreadable (ignore-rules.ts readText). */
export function walkReadText(d: WalkSyncDeps, path: string): string | null {
  try {
    return d.readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** ignore-rules.ts findRepoRoot. */
export function walkRepoRoot(d: WalkSyncDeps, dir: string): string | null {
  let current = dir;
  for (;;) {
    let found = true;
    try {
      d.statSync(d.join(current, '.git'));
    } catch {
      found = false;
    }
    if (found) return current;
    const parent = d.dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

/** The last core.excludesFile value in one git config text, unquoted; null when it sets none. */
export function walkExcludesSetting(text: string): string | null {
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

/** ignore-rules.ts globalExcludesPath. */
export function walkGlobalExcludes(d: WalkSyncDeps, env: Readonly<Record<string, string | undefined>>): string | null {
  const home = env.HOME || env.USERPROFILE;
  const xdg = env.XDG_CONFIG_HOME || (home ? d.join(home, '.config') : undefined);
  const configs = [xdg ? d.join(xdg, 'git', 'config') : null, home ? d.join(home, '.gitconfig') : null].filter(
    (p): p is string => p !== null,
  );
  let configured: string | null = null;
  for (const file of configs) {
    const text = walkReadText(d, file);
    if (text !== null) configured = walkExcludesSetting(text) ?? configured;
  }
  if (configured) return configured.startsWith('~/') && home ? d.join(home, configured.slice(2)) : configured;
  return xdg ? d.join(xdg, 'git', 'ignore') : null;
}

/** A layer from an ignore file's text. */
export function walkLayer(d: WalkSyncDeps, base: string, text: string): SyncLayer {
  return { base, text, rules: d.ignore({ allowRelativePaths: true }).add(text) as SyncLayer['rules'] };
}

/** ignore-rules.ts directoryLayers. */
export function walkDirLayers(d: WalkSyncDeps, dir: string, names: ReadonlySet<string>, inRepo: boolean): SyncLayer[] {
  const layers: SyncLayer[] = [];
  for (const name of ['.gitignore', '.ignore', '.rgignore']) {
    if (!names.has(name) || (name === '.gitignore' && !inRepo)) continue;
    const text = walkReadText(d, d.join(dir, name));
    if (text !== null) layers.push(walkLayer(d, dir, text));
  }
  return layers;
}

/** ignore-rules.ts inheritedRules. */
export function walkInherited(
  d: WalkSyncDeps,
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): { repoRoot: string | null; inherited: SyncLayer[] } {
  const repoRoot = walkRepoRoot(d, root);
  const inherited: SyncLayer[] = [];
  if (repoRoot) {
    const globalPath = walkGlobalExcludes(d, env);
    const globalText = globalPath ? walkReadText(d, globalPath) : null;
    if (globalText !== null) inherited.push(walkLayer(d, repoRoot, globalText));
    const exclude = walkReadText(d, d.join(repoRoot, '.git', 'info', 'exclude'));
    if (exclude !== null) inherited.push(walkLayer(d, repoRoot, exclude));
  }
  const parents: string[] = [];
  let current = d.dirname(root);
  while (current !== root) {
    if (repoRoot !== null && d.relative(repoRoot, current).startsWith('..')) break;
    parents.unshift(current);
    const parent = d.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const dir of parents) {
    inherited.push(...walkDirLayers(d, dir, new Set(['.gitignore', '.ignore', '.rgignore']), repoRoot !== null));
  }
  return { repoRoot, inherited };
}

/** ignore-rules.ts isIgnored (with testSelf). */
export function walkIsIgnored(d: WalkSyncDeps, layers: readonly SyncLayer[], absolute: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, rules } of layers) {
    const prefix = base.endsWith(d.sep) ? base : base + d.sep;
    const rel = absolute.startsWith(prefix) ? absolute.slice(prefix.length) : d.relative(base, absolute);
    if (rel === '' || rel.startsWith('..') || d.isAbsolute(rel)) continue;
    const posix = (d.sep === '/' ? rel : rel.split(d.sep).join('/')) + (isDir ? '/' : '');
    const internal = rules._rules;
    const result = typeof internal?.test === 'function' ? internal.test(posix, 'regex') : rules.test(posix);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

const byName = (a: WalkDirent, b: WalkDirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Lists and filters one directory (walker.ts list): entries sorted by name that survive the
 * hidden, type, symlink and ignore filters, and the layers in force inside it. Null when unreadable.
 */
export function walkList(
  d: WalkSyncDeps,
  dir: string,
  relDir: string,
  layers: SyncLayer[],
  scope: WalkScope,
): { items: WalkItem[]; active: SyncLayer[] } | null {
  let entries: WalkDirent[];
  try {
    entries = d.readdirSync(dir, { withFileTypes: true }).sort(byName);
  } catch {
    return null;
  }
  const names = new Set<string>();
  for (const e of entries) {
    if (e.name === '.gitignore' || e.name === '.ignore' || e.name === '.rgignore') names.add(e.name);
  }
  const own = names.size === 0 ? [] : walkDirLayers(d, dir, names, scope.inRepo);
  const active = own.length > 0 ? [...layers, ...own] : layers;
  const items: WalkItem[] = [];
  const prefix = dir.endsWith(d.sep) ? dir : dir + d.sep;
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
      let target: { isDirectory(): boolean; isFile(): boolean };
      try {
        target = d.statSync(absolute);
      } catch {
        continue;
      }
      isDir = target.isDirectory();
      isFile = target.isFile();
    }
    if (!isDir && !isFile) continue;
    if (walkIsIgnored(d, active, absolute, isDir)) continue;
    items.push({ absolute, relative: relDir === '' ? entry.name : `${relDir}/${entry.name}`, isDir });
  }
  return { items, active };
}

/** The real path of a directory, or the path itself when it cannot be resolved. */
export function walkRealpath(d: WalkSyncDeps, path: string): string {
  try {
    return d.realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Walks the directory `dir` (already listed as an item of its parent, with the parent's `layers`
 * in force) depth-first in walker.ts order, handing files to `sink` in batches. `ancestors` holds
 * the real paths of the followed directories above it (followSymlinks only). `stopped` is polled
 * once per directory. Returns false when stopped or when the sink asked to stop.
 */
export function walkSubtree(
  d: WalkSyncDeps,
  dir: WalkItem,
  layers: SyncLayer[],
  scope: WalkScope,
  ancestors: Set<string> | null,
  sink: WalkSink,
  stopped: () => boolean,
): boolean {
  let absolutes: string[] = [];
  let relatives: string[] = [];
  interface Frame {
    items: WalkItem[];
    active: SyncLayer[];
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
  const enter = (item: WalkItem, parentLayers: SyncLayer[]): void => {
    let real: string | null = null;
    if (ancestors !== null) {
      real = walkRealpath(d, item.absolute);
      if (ancestors.has(real)) return;
      ancestors.add(real);
    }
    const listed = walkList(d, item.absolute, item.relative, parentLayers, scope);
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

/**
 * Walks `root` (a directory) whole: its inherited rules, then walkSubtree. Returns the symlinks
 * skipped, or null when stopped.
 */
export function walkTree(d: WalkSyncDeps, root: string, options: WalkSyncOptions, sink: WalkSink, stopped: () => boolean): number | null {
  const context = walkInherited(d, root, options.env);
  const scope: WalkScope = { inRepo: context.repoRoot !== null, followSymlinks: options.followSymlinks, symlinks: 0 };
  const ancestors = options.followSymlinks ? new Set<string>() : null;
  const done = walkSubtree(d, { absolute: root, relative: '', isDir: true }, context.inherited, scope, ancestors, sink, stopped);
  return done ? scope.symlinks : null;
}
