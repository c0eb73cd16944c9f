/** How search results name files: relative to the working directory when under it, else absolute. */
import { isAbsolute, relative, sep } from 'node:path';

/** A directory as the start of every path inside it: with a trailing separator. */
export function dirPrefix(dir: string): string {
  return dir.endsWith(sep) ? dir : dir + sep;
}

/** Display path: relative to cwd with forward slashes when under it, else absolute. */
export function displayPath(cwd: string, absolute: string): string {
  // The common case, a file under cwd (both normalised absolute paths), without path.relative.
  const prefix = dirPrefix(cwd);
  if (absolute.startsWith(prefix) && absolute.length > prefix.length && !cwd.includes(`${sep}.`)) {
    const rel = absolute.slice(prefix.length);
    return sep === '/' ? rel : rel.split(sep).join('/');
  }
  const rel = relative(cwd, absolute);
  const shown = rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
  return sep === '/' ? shown : shown.split(sep).join('/');
}
