/** Shared path and text loading for the file commands: symlink policy, size cap, binary refusal. */
import { close as closeFd, closeSync, constants, fstatSync, open as openFd, read as readFd, readSync, type Stats } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { AhError } from '../../errors.js';
import { decodeUtf8, SNIFF_BYTES } from '../../platform/text.js';

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
 * Files up to this size are read with synchronous calls once opened: fstat, read and close of a
 * small local file take microseconds, while each asynchronous step is a round trip through the
 * thread pool (two thread switches), which dominated a small read. The open stays asynchronous
 * (path lookup is where a slow mount would stall), and bigger files are read asynchronously.
 */
const SYNC_READ_MAX = 1024 * 1024;

// The asynchronous path uses the callback API on a bare descriptor: no FileHandle object, one
// fstat, and the close is not waited for (it cannot change the result).
function openAsync(path: string, flags: string | number): Promise<number> {
  return new Promise((done, fail) => openFd(path, flags, (error, fd) => (error ? fail(error) : done(fd))));
}

function readAsync(fd: number, buffer: Buffer, offset: number): Promise<number> {
  return new Promise((done, fail) =>
    readFd(fd, buffer, offset, buffer.length - offset, null, (error, bytesRead) => (error ? fail(error) : done(bytesRead))),
  );
}

/**
 * Reads `size` bytes from the current position, asynchronously (files over SYNC_READ_MAX; a
 * smaller size, including the 0 that procfs reports, goes through readToEndSync).
 */
async function readToEnd(fd: number, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  let length = 0;
  while (length < size) {
    const bytesRead = await readAsync(fd, buffer, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return length < size ? buffer.subarray(0, length) : buffer;
}

/**
 * Reads to the end with synchronous reads (small files, see SYNC_READ_MAX): `size` bytes when the
 * stat size is known (as readFile does), else chunks until end of file (procfs reports size 0).
 */
function readToEndSync(fd: number, size: number): Buffer {
  if (size > 0) {
    const buffer = Buffer.allocUnsafe(size);
    let length = 0;
    while (length < size) {
      const bytesRead = readSync(fd, buffer, length, size - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return length < size ? buffer.subarray(0, length) : buffer;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const bytesRead = readSync(fd, chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

/**
 * Opens the file for reading. Where the platform has O_NOFOLLOW, the symlink policy costs no extra
 * system call: opening a symlink fails with ELOOP, and only then is the path looked at again.
 */
async function openForRead(cwd: string, path: string, followSymlinks: boolean): Promise<number> {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  const noFollow = constants.O_NOFOLLOW;
  if (!followSymlinks && noFollow === undefined) await resolvePath(cwd, path, false);
  try {
    return await openAsync(absolute, followSymlinks || noFollow === undefined ? 'r' : constants.O_RDONLY | noFollow);
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
  const fd = await openForRead(cwd, path, followSymlinks);
  let bytes: Buffer;
  let sync = true;
  try {
    let info: Stats;
    try {
      info = fstatSync(fd);
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
    sync = info.size <= SYNC_READ_MAX;
    try {
      bytes = sync ? readToEndSync(fd, info.size) : await readToEnd(fd, info.size);
    } catch (error) {
      throw fsError(error, path, 'FILE_READ_FAILED');
    }
  } finally {
    if (sync) {
      try {
        closeSync(fd);
      } catch {
        // The descriptor is gone either way; the data read is complete.
      }
    } else closeFd(fd, () => undefined);
  }
  if (bytes.length > maxBytes) {
    throw new AhError({ code: 'INVALID_ARGUMENT', message: `file is too large: ${bytes.length} bytes > --max-bytes ${maxBytes}` });
  }
  // The whole buffer is decoded strictly (valid UTF-8 or null), which covers the sniff window's
  // UTF-8 check; what the sniff adds is the NUL test, a native search here.
  const text = bytes.subarray(0, SNIFF_BYTES).indexOf(0) === -1 ? decodeUtf8(bytes) : null;
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

/** The number of lines splitLines would return, without building them. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
  return text.endsWith('\n') ? count : count + 1;
}

/** `-n` rendering: line number right-aligned to width 4, then ': ', then the text. */
export function numberLines(lines: readonly string[], firstLine: number): string[] {
  return lines.map((line, i) => `${String(firstLine + i).padStart(4)}: ${line}`);
}

export { fsError };
