/** Root resolution, glob compilation and path display shared by the search commands. */
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import type { Effects } from '../../catalog/effects.js';
import { AhError } from '../../errors.js';
import { walkBatchesOffThread } from './walk-worker.js';
import { walkBatches, walkFiles, type WalkCounters, type WalkedFile, type WalkOptions } from './walker.js';

export const BACKEND = 'ignore+node';

export const SEARCH_EFFECTS: Effects = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  effects: ['filesystem_read'],
  risk: 'medium',
  impact: 'Reads files under the given roots (following symlinks can leave the root); changes nothing.',
  reversibility: 'yes',
};

export interface Root {
  given: string;
  absolute: string;
  isFile: boolean;
}

export async function resolveRoots(cwd: string, paths: readonly string[]): Promise<Root[]> {
  const list = paths.length === 0 ? ['.'] : paths;
  const roots: Root[] = [];
  for (const given of list) {
    const absolute = isAbsolute(given) ? given : resolve(cwd, given);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) {
      throw new AhError({
        code: 'PATH_NOT_FOUND',
        message: `no such file or directory: ${given}`,
        hint: 'Check the path, or set --cwd / context.cwd.',
      });
    }
    roots.push({ given, absolute, isFile: info.isFile() });
  }
  return roots;
}

/** Compiles include/exclude globs (a leading `!` excludes); paths are relative to each root. */
export function compileGlobs(globs: readonly string[]): ((path: string) => boolean) | undefined {
  if (globs.length === 0) return undefined;
  const include: picomatch.Matcher[] = [];
  const exclude: picomatch.Matcher[] = [];
  for (const glob of globs) {
    const negated = glob.startsWith('!');
    const pattern = negated ? glob.slice(1) : glob;
    if (pattern === '' || /\[[^\]]*$/.test(pattern)) {
      throw new AhError({
        code: 'GLOB_INVALID',
        message: `invalid glob '${glob}'`,
        hint: 'Use patterns like *.ts, src/**, or !**/*.test.ts.',
      });
    }
    let matcher: picomatch.Matcher;
    try {
      // A glob without a slash matches the file name anywhere, as in ripgrep.
      matcher = picomatch(pattern, { dot: true, basename: !pattern.includes('/'), strictBrackets: true });
    } catch (error) {
      throw new AhError({ code: 'GLOB_INVALID', message: `invalid glob '${glob}'`, cause: (error as Error).message });
    }
    (negated ? exclude : include).push(matcher);
  }
  return (path) => (include.length === 0 || include.some((m) => m(path))) && !exclude.some((m) => m(path));
}

/** Display path: relative to cwd with forward slashes when under it, else absolute. */
export function displayPath(cwd: string, absolute: string): string {
  const rel = relative(cwd, absolute);
  const shown = rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
  return sep === '/' ? shown : shown.split(sep).join('/');
}

/** Every file of every root, in order (a file root yields itself). */
export async function* filesOf(roots: readonly Root[], options: WalkOptions, counters: WalkCounters): AsyncGenerator<WalkedFile> {
  for (const root of roots) {
    if (root.isFile) {
      yield { absolute: root.absolute, relative: root.given };
      continue;
    }
    yield* walkFiles(root.absolute, options, counters);
  }
}

/** filesOf in batches (consecutive files of one directory), for consumers that work per batch. */
export async function* batchesOf(roots: readonly Root[], options: WalkOptions, counters: WalkCounters): AsyncGenerator<WalkedFile[]> {
  for (const root of roots) {
    if (root.isFile) {
      yield [{ absolute: root.absolute, relative: root.given }];
      continue;
    }
    yield* walkBatches(root.absolute, options, counters);
  }
}

/** batchesOf with each directory walked on a worker thread (walk-worker.ts); same files, same order. */
export async function* batchesOffThread(
  roots: readonly Root[],
  options: WalkOptions,
  counters: WalkCounters,
): AsyncGenerator<WalkedFile[]> {
  for (const root of roots) {
    if (root.isFile) {
      yield [{ absolute: root.absolute, relative: root.given }];
      continue;
    }
    yield* walkBatchesOffThread(root.absolute, options, counters);
  }
}
