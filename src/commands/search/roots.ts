/** Root resolution and the effects shared by the search commands. */
import { isAbsolute, resolve } from 'node:path';
import type { Effects } from '../../catalog/effects.js';
import { AhError } from '../../errors.js';
import { statPath } from '../../platform/fs-callback.js';

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
    const info = await statPath(absolute).catch(() => undefined);
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
