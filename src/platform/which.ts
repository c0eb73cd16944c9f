/**
 * Finds a program on PATH the way the OS would start it (PATH × PATHEXT on Windows, where npm
 * installs `.cmd` shims). Used to tell "this agent's CLI is installed" before running it.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Env } from './paths.js';

function executable(path: string, windows: boolean): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (!windows) accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The absolute path `program` resolves to on the environment's PATH, or null. */
export function findOnPath(program: string, env: Env, platform: NodeJS.Platform = process.platform): string | null {
  const windows = platform === 'win32';
  const path = env.PATH ?? env.Path ?? '';
  const extensions = windows ? (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e !== '') : [''];
  for (const dir of path.split(windows ? ';' : delimiter)) {
    if (dir === '') continue;
    for (const ext of extensions) {
      const candidate = join(dir, program + ext);
      if (executable(candidate, windows)) return candidate;
    }
  }
  return null;
}
