/** Shared path and text loading for the file commands: symlink policy, size cap, binary refusal. */
import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { AhError } from '../../errors.js';
import { decodeUtf8, looksLikeText, SNIFF_BYTES } from '../../platform/text.js';

export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

function fsError(error: unknown, path: string, fallback: string): AhError {
  const code = (error as NodeJS.ErrnoException).code;
  const cause = error instanceof Error ? error.message : String(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new AhError({
      code: fallback === 'FILE_READ_FAILED' ? 'FILE_NOT_FOUND' : 'PATH_NOT_FOUND',
      message: `no such file or directory: ${path}`,
      cause,
      hint: 'Check the path, or run with --cwd / context.cwd set to the project.',
    });
  }
  if (code === 'ELOOP')
    return new AhError({
      code: 'PATH_INVALID_TYPE',
      message: `symlink loop at ${path}`,
      cause,
      hint: 'The link points back at itself; fix or remove it.',
    });
  if (code === 'EACCES' || code === 'EPERM') return new AhError({ code: fallback, message: `permission denied: ${path}`, cause });
  return new AhError({ code: fallback, message: `cannot access ${path}`, cause });
}

/**
 * Resolves `path` against cwd and applies the symlink policy: without followSymlinks a path that is
 * itself a symlink is refused. Returns the absolute path and its (followed) stats.
 */
export async function resolvePath(cwd: string, path: string, followSymlinks: boolean, errorCode = 'FILE_READ_FAILED') {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  let link: Stats;
  try {
    link = await lstat(absolute);
  } catch (error) {
    throw fsError(error, path, errorCode);
  }
  if (link.isSymbolicLink()) {
    if (!followSymlinks) {
      throw new AhError({
        code: 'SYMLINK_TRAVERSAL_BLOCKED',
        message: `${path} is a symbolic link`,
        hint: 'Pass --follow-symlinks (follow_symlinks: true) to read through it.',
      });
    }
    try {
      return { absolute, info: await stat(absolute), real: await realpath(absolute) };
    } catch (error) {
      throw fsError(error, path, errorCode);
    }
  }
  return { absolute, info: link, real: absolute };
}

/**
 * Opens the file for reading. Where the platform has O_NOFOLLOW, the symlink policy costs no extra
 * system call: opening a symlink fails with ELOOP, and only then is the path looked at again.
 */
async function openForRead(cwd: string, path: string, followSymlinks: boolean): Promise<FileHandle> {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  const noFollow = constants.O_NOFOLLOW;
  if (!followSymlinks && noFollow === undefined) await resolvePath(cwd, path, false);
  try {
    return await open(absolute, followSymlinks || noFollow === undefined ? 'r' : constants.O_RDONLY | noFollow);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP' && !followSymlinks) {
      const link = await lstat(absolute).catch(() => undefined);
      if (link?.isSymbolicLink()) await resolvePath(cwd, path, false);
    }
    throw fsError(error, path, 'FILE_READ_FAILED');
  }
}

/** Loads a UTF-8 text file within `maxBytes`; refuses directories, binaries and oversize files. */
export async function loadText(cwd: string, path: string, maxBytes: number, followSymlinks: boolean): Promise<string> {
  const handle = await openForRead(cwd, path, followSymlinks);
  let bytes: Buffer;
  try {
    let info: Stats;
    try {
      info = await handle.stat();
    } catch (error) {
      throw fsError(error, path, 'FILE_READ_FAILED');
    }
    if (!info.isFile()) {
      throw new AhError({
        code: 'PATH_INVALID_TYPE',
        message: `${path} is not a regular file`,
        hint: info.isDirectory() ? "Use 'ah file tree' for directories." : undefined,
      });
    }
    if (info.size > maxBytes) {
      throw new AhError({
        code: 'INVALID_ARGUMENT',
        message: `file is too large: ${info.size} bytes > --max-bytes ${maxBytes}`,
        hint: 'Raise --max-bytes (max_bytes) or read a range of a smaller file.',
      });
    }
    try {
      bytes = await handle.readFile();
    } catch (error) {
      throw fsError(error, path, 'FILE_READ_FAILED');
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
  if (bytes.length > maxBytes) {
    throw new AhError({ code: 'INVALID_ARGUMENT', message: `file is too large: ${bytes.length} bytes > --max-bytes ${maxBytes}` });
  }
  const text = looksLikeText(bytes.subarray(0, SNIFF_BYTES), bytes.length <= SNIFF_BYTES) ? decodeUtf8(bytes) : null;
  if (text === null) {
    throw new AhError({ code: 'INVALID_ARGUMENT', message: 'binary or non-UTF8 file is not supported', cause: path });
  }
  return text;
}

/** Splits text into lines; a final newline does not start an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** `-n` rendering: line number right-aligned to width 4, then ': ', then the text. */
export function numberLines(lines: readonly string[], firstLine: number): string[] {
  return lines.map((line, i) => `${String(firstLine + i).padStart(4)}: ${line}`);
}

export { fsError };
