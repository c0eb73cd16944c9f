/** The SQL of query, exec and explain: `sql` text or a `file` under the call's working directory. */
import { open } from 'node:fs/promises';
import { constants } from 'node:fs';
import { resolve } from 'node:path';
import { AhError } from '../../../errors.js';

export const MAX_SQL_FILE_BYTES = 1_048_576;

function invalid(message: string, hint?: string): AhError {
  return new AhError({ code: 'INVALID_ARGUMENT', message, hint, domain: 'postgres' });
}

export async function sqlText(args: { sql?: string | undefined; file?: string | undefined }, cwd: string): Promise<string> {
  if (args.sql !== undefined && args.file !== undefined) throw invalid('give sql or file, not both');
  if (args.sql !== undefined) return args.sql;
  if (args.file === undefined) throw invalid('the SQL is missing', 'Pass sql (--sql TEXT) or file (--file PATH).');
  const path = resolve(cwd, args.file);
  // O_NONBLOCK: a FIFO or device named by an agent must not block the open.
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AhError({
      code: code === 'ENOENT' ? 'FILE_NOT_FOUND' : 'FILE_READ_FAILED',
      message: `cannot read SQL file ${args.file}`,
      cause: `${code ?? 'error'}: ${path}`,
      hint: 'Check the path or the working directory (--cwd / context.cwd).',
    });
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw invalid(`${args.file} is not a regular file`);
    if (info.size > MAX_SQL_FILE_BYTES) throw invalid(`${args.file} is larger than ${MAX_SQL_FILE_BYTES} bytes`);
    const text = await handle.readFile('utf8');
    if (text.trim() === '') throw invalid(`${args.file} is empty`);
    return text;
  } finally {
    await handle.close();
  }
}
