/**
 * Ignore rules with ripgrep's precedence: git's global excludes, then .git/info/exclude, then per
 * directory .gitignore < .ignore < .rgignore, deeper directories overriding shallower ones. The git
 * files apply only inside a git repository; .ignore and .rgignore apply everywhere.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import ignoreFactory, { type Ignore } from 'ignore';
import { walkExcludesSetting } from './walk-sync.js';

export interface Layer {
  /** Directory the patterns are relative to. */
  base: string;
  rules: Ignore;
}

const toPosix = (p: string) => (sep === '/' ? p : p.split(sep).join('/'));

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

function layer(base: string, text: string): Layer {
  return { base, rules: ignoreFactory({ allowRelativePaths: true }).add(text) };
}

/** The repository root containing `dir` (a `.git` directory or file), or null. */
export async function findRepoRoot(dir: string): Promise<string | null> {
  let current = dir;
  for (;;) {
    if (
      await stat(join(current, '.git')).then(
        () => true,
        () => false,
      )
    )
      return current;
    const parent = dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

function expandHome(path: string, home: string | undefined): string {
  return path.startsWith('~/') && home ? join(home, path.slice(2)) : path;
}

/** core.excludesFile from the user's git config, else git's default global ignore file. */
async function globalExcludesPath(env: Readonly<Record<string, string | undefined>>): Promise<string | null> {
  const home = env.HOME || env.USERPROFILE;
  const xdg = env.XDG_CONFIG_HOME || (home ? join(home, '.config') : undefined);
  const configs = [xdg ? join(xdg, 'git', 'config') : null, home ? join(home, '.gitconfig') : null].filter((p): p is string => p !== null);
  let configured: string | null = null;
  for (const file of configs) {
    const text = await readText(file);
    if (text !== null) configured = walkExcludesSetting(text) ?? configured;
  }
  if (configured) return expandHome(configured, home);
  return xdg ? join(xdg, 'git', 'ignore') : null;
}

export interface RuleContext {
  repoRoot: string | null;
  /** Layers that apply to everything under the walk root (global, info/exclude, parents). */
  inherited: Layer[];
}

/** Loads the ignore files of one directory (in precedence order). */
export async function directoryLayers(dir: string, names: ReadonlySet<string>, inRepo: boolean): Promise<Layer[]> {
  const layers: Layer[] = [];
  for (const name of ['.gitignore', '.ignore', '.rgignore']) {
    if (!names.has(name) || (name === '.gitignore' && !inRepo)) continue;
    const text = await readText(join(dir, name));
    if (text !== null) layers.push(layer(dir, text));
  }
  return layers;
}

/** Rules that apply before walking `root`: global excludes, info/exclude, and parents' files. */
export async function inheritedRules(root: string, env: Readonly<Record<string, string | undefined>>): Promise<RuleContext> {
  const repoRoot = await findRepoRoot(root);
  const inherited: Layer[] = [];
  if (repoRoot) {
    const globalPath = await globalExcludesPath(env);
    const globalText = globalPath ? await readText(globalPath) : null;
    if (globalText !== null) inherited.push(layer(repoRoot, globalText));
    const exclude = await readText(join(repoRoot, '.git', 'info', 'exclude'));
    if (exclude !== null) inherited.push(layer(repoRoot, exclude));
  }
  // Parent directories from the repository root (or the filesystem root for .ignore files) down to root's parent.
  const parents: string[] = [];
  let current = dirname(root);
  const stopAt = repoRoot ?? null;
  while (current !== root) {
    if (stopAt !== null && relative(stopAt, current).startsWith('..')) break;
    parents.unshift(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const dir of parents) {
    const names = new Set(['.gitignore', '.ignore', '.rgignore']);
    inherited.push(...(await directoryLayers(dir, names, repoRoot !== null)));
  }
  return { repoRoot, inherited };
}

type SelfTest = { _rules?: { test?: (path: string, mode: string) => { ignored: boolean; unignored: boolean } } };

/**
 * Tests one path against one layer by its own name only, as ripgrep does. The public `test()` of
 * the `ignore` package also applies rules to every ancestor, which would hide everything under an
 * explicitly named root that a parent's rules ignore (e.g. `ah search text x node_modules`). The
 * walker never enters an ignored directory, so checking ancestors adds nothing inside the walk.
 */
function testSelf(rules: Ignore, path: string): { ignored: boolean; unignored: boolean } {
  const internal = (rules as unknown as SelfTest)._rules;
  if (typeof internal?.test === 'function') return internal.test(path, 'regex');
  return rules.test(path);
}

/** Applies layers in order; the last layer with an opinion wins (negations re-include). */
export function isIgnored(layers: readonly Layer[], absolute: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, rules } of layers) {
    // Layers belong to ancestors of the walked path: slicing is path.relative without its cost.
    const prefix = base.endsWith(sep) ? base : base + sep;
    const rel = absolute.startsWith(prefix) ? absolute.slice(prefix.length) : relative(base, absolute);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) continue;
    const result = testSelf(rules, toPosix(rel) + (isDir ? '/' : ''));
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
