/** File inputs of forge commands (body_file, notes_file, …): UTF-8, bounded, regular files only. */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { CommandContext } from '../../../catalog/descriptor.js';
import { AhError } from '../../../errors.js';

const MAX_BYTES = 1024 * 1024;

export async function readTextFile(ctx: CommandContext, path: string, domain: string): Promise<string> {
  const full = isAbsolute(path) ? path : resolve(ctx.cwd, path);
  const fail = (message: string, cause?: string) =>
    new AhError({ code: 'FILE_READ_FAILED', message, cause, domain, operation: `${domain}.input` });
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // Non-blocking open: a FIFO named here must not wedge a thread-pool slot.
    handle = await open(full, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw fail(`cannot open ${path}`, (error as Error).message);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw fail(`${path} is not a regular file`);
    if (info.size > MAX_BYTES) throw fail(`${path} is larger than ${MAX_BYTES} bytes`);
    const text = (await handle.readFile()).toString('utf8');
    if (text.includes('\uFFFD')) throw fail(`${path} is not valid UTF-8`);
    return text;
  } finally {
    await handle.close();
  }
}
