/**
 * The walk of walker.ts as one synchronous function, for a worker thread (walk-worker.ts). Same
 * semantics: sorted names, hidden entries skipped, .gitignore/.ignore/.rgignore with ripgrep's
 * precedence (ignore-rules.ts), symlinks skipped and counted unless followed, followed directories
 * never entered twice on one path. The functions are shipped to the worker as source text, so they
 * use nothing but their parameters and each other (no imports, no module-level values).
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

interface SyncLayer {
  base: string;
  rules: { test(path: string): SelfResult; _rules?: { test?: (path: string, mode: string) => SelfResult } };
}

export interface WalkSyncOptions {
  followSymlinks: boolean;
  env: Readonly<Record<string, string | undefined>>;
}

/** Receives consecutive files (absolute and root-relative paths); returns false to stop the walk. */
export type WalkSink = (absolute: string[], relative: string[]) => boolean;

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

/** ignore-rules.ts directoryLayers. */
export function walkDirLayers(d: WalkSyncDeps, dir: string, names: ReadonlySet<string>, inRepo: boolean): SyncLayer[] {
  const layers: SyncLayer[] = [];
  for (const name of ['.gitignore', '.ignore', '.rgignore']) {
    if (!names.has(name) || (name === '.gitignore' && !inRepo)) continue;
    const text = walkReadText(d, d.join(dir, name));
    if (text !== null) layers.push({ base: dir, rules: d.ignore({ allowRelativePaths: true }).add(text) as SyncLayer['rules'] });
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
    if (globalText !== null)
      inherited.push({ base: repoRoot, rules: d.ignore({ allowRelativePaths: true }).add(globalText) as SyncLayer['rules'] });
    const exclude = walkReadText(d, d.join(repoRoot, '.git', 'info', 'exclude'));
    if (exclude !== null)
      inherited.push({ base: repoRoot, rules: d.ignore({ allowRelativePaths: true }).add(exclude) as SyncLayer['rules'] });
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

/**
 * Walks `root` (a directory) depth-first in walker.ts order, handing files to `sink` in batches.
 * `stopped` is polled once per directory. Returns the symlinks skipped, or null when stopped.
 */
export function walkTree(d: WalkSyncDeps, root: string, options: WalkSyncOptions, sink: WalkSink, stopped: () => boolean): number | null {
  const context = walkInherited(d, root, options.env);
  const inRepo = context.repoRoot !== null;
  let visited: Set<string> | null = null;
  if (options.followSymlinks) {
    let real = root;
    try {
      real = d.realpathSync(root);
    } catch {}
    visited = new Set([real]);
  }
  let symlinks = 0;
  let absolutes: string[] = [];
  let relatives: string[] = [];
  const byName = (a: WalkDirent, b: WalkDirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

  interface SyncItem {
    absolute: string;
    relative: string;
    isDir: boolean;
  }
  /** Lists and filters one directory (walker.ts list), null when unreadable. */
  const list = (dir: string, relDir: string, layers: SyncLayer[]): { items: SyncItem[]; active: SyncLayer[] } | null => {
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
    const own = names.size === 0 ? [] : walkDirLayers(d, dir, names, inRepo);
    const active = own.length > 0 ? [...layers, ...own] : layers;
    const items: SyncItem[] = [];
    const prefix = dir.endsWith(d.sep) ? dir : dir + d.sep;
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const absolute = prefix + entry.name;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        if (!options.followSymlinks) {
          symlinks += 1;
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
  };

  interface SyncFrame {
    items: SyncItem[];
    active: SyncLayer[];
    next: number;
    real: string | null;
  }
  const stack: SyncFrame[] = [];
  const flush = (): boolean => {
    if (absolutes.length === 0) return true;
    const more = sink(absolutes, relatives);
    absolutes = [];
    relatives = [];
    return more;
  };
  const first = list(root, '', context.inherited);
  if (first !== null) stack.push({ items: first.items, active: first.active, next: 0, real: null });
  while (stack.length > 0) {
    if (stopped()) return null;
    const frame = stack[stack.length - 1] as SyncFrame;
    let descend: SyncItem | null = null;
    while (frame.next < frame.items.length) {
      const item = frame.items[frame.next] as SyncItem;
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
      if (frame.real !== null) visited?.delete(frame.real);
      continue;
    }
    let real: string | null = null;
    if (visited !== null) {
      real = descend.absolute;
      try {
        real = d.realpathSync(descend.absolute);
      } catch {}
      if (visited.has(real)) continue;
      visited.add(real);
    }
    const listed = list(descend.absolute, descend.relative, frame.active);
    if (listed === null) {
      if (real !== null) visited?.delete(real);
      continue;
    }
    stack.push({ items: listed.items, active: listed.active, next: 0, real });
    // Batches go out at directory boundaries once big enough (the sink decides how big).
    if (absolutes.length >= 16 && !flush()) return null;
  }
  if (!flush()) return null;
  return symlinks;
}
