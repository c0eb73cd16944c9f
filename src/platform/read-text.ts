/** Reading a text file that may not exist yet (a config, a lock): absent is null, not an error. */
import { readFile } from 'node:fs/promises';

export async function readTextIfPresent(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
