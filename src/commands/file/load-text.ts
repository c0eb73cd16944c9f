/** Shared path and text loading for the file commands: symlink policy, size cap, binary refusal. */
import { close as closeFd, closeSync, constants, fstatSync, open as openFd, openSync, read as readFd, readSync, type Stats } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { AhError } from '../../errors.js';
import { mayLookUpSynchronously } from '../../platform/local-directories.js';
import { readUnlessBinarySync } from '../../platform/sniffed-read.js';
import { decodeUtf8, SNIFF_BYTES } from '../../platform/text.js';

export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

export function fsError(error: unknown, path: string, fallback: string): AhError {
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
 * thread pool (two thread switches), which dominated a small read. The open is synchronous only
 * where the path lookup is known to stay on local file systems (see openFile), and bigger files
 * are read asynchronously.
 */
const SYNC_READ_MAX = 1024 * 1024;

// The asynchronous path uses the callback API on a bare descriptor: no FileHandle object, one
// fstat, and the close is not waited for (it cannot change the result).
function openAsync(path: string, flags: number): Promise<number> {
  return new Promise((done, fail) => openFd(path, flags, (error, fd) => (error ? fail(error) : done(fd))));
}

/**
 * Opens on the calling thread in a directory known to sit on local file systems (see
 * platform/local-directories.ts), through the thread pool anywhere else; an open elsewhere starts
 * gathering that knowledge for the next one.
 */
function openFile(path: string, flags: number): number | Promise<number> {
  return mayLookUpSynchronously(path) ? openSync(path, flags) : openAsync(path, flags);
}

function readAsync(fd: number, buffer: Buffer, offset: number, length: number): Promise<number> {
  return new Promise((done, fail) =>
    readFd(fd, buffer, offset, length, null, (error, bytesRead) => (error ? fail(error) : done(bytesRead))),
  );
}

function binaryFile(path: string): AhError {
  return new AhError({ code: 'INVALID_ARGUMENT', message: 'binary or non-UTF8 file is not supported', cause: path });
}

function tooLarge(size: number | string, maxBytes: number): AhError {
  return new AhError({
    code: 'INVALID_ARGUMENT',
    message: `file is too large: ${size} bytes > --max-bytes ${maxBytes}`,
    hint: 'Raise --max-bytes (max_bytes) or read a range of a smaller file.',
  });
}

/** What a non-regular file is, for the refusal message. */
function kindName(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

function notRegularFile(path: string, info: Stats): AhError {
  return new AhError({
    code: 'PATH_INVALID_TYPE',
    message: `${path} is not a regular file (${kindName(info)})`,
    hint: info.isDirectory()
      ? "Use 'ah file tree' for directories."
      : 'Only regular files are read; pipes, sockets and devices are refused.',
  });
}

/** NUL in the first SNIFF_BYTES bytes marks a binary file (the UTF-8 check is the decode's). */
function sniffsBinary(bytes: Buffer, length: number): boolean {
  return bytes.subarray(0, Math.min(length, SNIFF_BYTES)).indexOf(0) !== -1;
}

/**
 * Reads `size` bytes from the current position, refusing a binary file after the first read
 * (platform/sniffed-read.ts). `size` 0 (what procfs reports) reads chunks until end of file,
 * bounded by `maxBytes`.
 */
function readToEndSync(fd: number, size: number, maxBytes: number, path: string): Buffer {
  if (size > 0) {
    const bytes = readUnlessBinarySync(fd, size);
    if (bytes === null) throw binaryFile(path);
    return bytes;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const bytesRead = readSync(fd, chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    if (total === 0 && sniffsBinary(chunk, bytesRead)) throw binaryFile(path);
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) throw tooLarge(`more than ${maxBytes}`, maxBytes);
  }
  return Buffer.concat(chunks, total);
}

/** The asynchronous counterpart of readToEndSync for files over SYNC_READ_MAX (size known). */
async function readToEnd(fd: number, size: number, path: string): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  let length = 0;
  while (length < size) {
    const want = length === 0 ? Math.min(size, SNIFF_BYTES) : size - length;
    const bytesRead = await readAsync(fd, buffer, length, want);
    if (bytesRead === 0) break;
    length += bytesRead;
    if (length === bytesRead && sniffsBinary(buffer, length)) throw binaryFile(path);
  }
  return length < size ? buffer.subarray(0, length) : buffer;
}

/**
 * O_NONBLOCK makes the open itself safe on anything that is not a regular file: opening a FIFO
 * with no writer (or some devices) would otherwise block a thread-pool thread until a writer
 * comes, and four such opens stall every file call of the process. The type is checked by fstat
 * on the descriptor right after. On a regular file the flag changes nothing.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Opens the file for reading. Where the platform has O_NOFOLLOW, the symlink policy costs no extra
 * system call: opening a symlink fails with ELOOP, and only then is the path looked at again.
 */
async function openForRead(cwd: string, path: string, followSymlinks: boolean): Promise<number> {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  const noFollow = constants.O_NOFOLLOW;
  if (!followSymlinks && noFollow === undefined) await resolvePath(cwd, path, false);
  try {
    return await openFile(absolute, followSymlinks || noFollow === undefined ? OPEN_FLAGS : OPEN_FLAGS | noFollow);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP' && !followSymlinks) {
      const link = await lstat(absolute).catch(() => undefined);
      if (link?.isSymbolicLink()) await resolvePath(cwd, path, false);
    }
    // A socket cannot be opened (ENXIO); some devices refuse with ENODEV or EOPNOTSUPP.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENXIO' || code === 'ENODEV' || code === 'EOPNOTSUPP') {
      const info = await (followSymlinks ? stat(absolute) : lstat(absolute)).catch(() => undefined);
      if (info && !info.isFile()) throw notRegularFile(path, info);
    }
    throw fsError(error, path, 'FILE_READ_FAILED');
  }
}

/**
 * Loads a UTF-8 text file within `maxBytes`; refuses anything but a regular file (directories,
 * FIFOs, sockets, devices), binaries and oversize files, each before reading the content.
 */
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
    if (!info.isFile()) throw notRegularFile(path, info);
    if (info.size > maxBytes) throw tooLarge(info.size, maxBytes);
    sync = info.size <= SYNC_READ_MAX;
    try {
      bytes = sync ? readToEndSync(fd, info.size, maxBytes, path) : await readToEnd(fd, info.size, path);
    } catch (error) {
      throw error instanceof AhError ? error : fsError(error, path, 'FILE_READ_FAILED');
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
  if (bytes.length > maxBytes) throw tooLarge(bytes.length, maxBytes);
  // The sniff window's NUL test ran on the first read; the whole buffer is decoded strictly
  // (valid UTF-8 or null), which covers the sniff's UTF-8 check.
  const text = decodeUtf8(bytes);
  if (text === null) throw binaryFile(path);
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
