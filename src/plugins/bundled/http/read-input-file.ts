/** Reads a request body file named by the caller: regular files only (never a FIFO or device), bounded. */
import { open, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { AhError } from '../../../errors.js';

export const MAX_INPUT_FILE_BYTES = 16_777_216;

export function isRelativePath(path: unknown): boolean {
  return typeof path === 'string' && !isAbsolute(path);
}

export async function readInputFile(cwd: string, path: string, field: string, maxBytes = MAX_INPUT_FILE_BYTES): Promise<Buffer> {
  const full = resolve(cwd, path);
  let size: number;
  try {
    const info = await stat(full);
    if (!info.isFile()) {
      throw new AhError({ code: 'FILE_READ_FAILED', message: `${field} is not a regular file: ${path}`, hint: 'Name a regular file.' });
    }
    size = info.size;
  } catch (error) {
    if (error instanceof AhError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new AhError({
        code: 'FILE_NOT_FOUND',
        message: `${field} does not exist: ${path}`,
        cause: full,
        hint: 'Paths are relative to the working directory (context.cwd).',
      });
    }
    throw new AhError({ code: 'FILE_READ_FAILED', message: `${field} cannot be read: ${path}`, cause: String(code ?? error) });
  }
  if (size > maxBytes) {
    throw new AhError({ code: 'FILE_READ_FAILED', message: `${field} is larger than ${maxBytes} bytes: ${path}`, cause: `${size} bytes` });
  }
  const handle = await open(full, 'r');
  try {
    // Read at most one byte past the cap, in case the file grew since stat.
    const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
    let offset = 0;
    while (offset < buffer.length) {
      const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    if (offset > maxBytes) throw new AhError({ code: 'FILE_READ_FAILED', message: `${field} is larger than ${maxBytes} bytes: ${path}` });
    return buffer.subarray(0, offset);
  } finally {
    await handle.close();
  }
}
