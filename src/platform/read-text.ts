/**
 * Reading a text file that may not exist yet (a config, a lock): absent is null, not an error.
 * Every start reads its settings with this (see fs-callback.ts for why not node:fs/promises).
 */
import { readTextFile } from './fs-callback.js';

export async function readTextIfPresent(path: string): Promise<string | null> {
  try {
    return await readTextFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
