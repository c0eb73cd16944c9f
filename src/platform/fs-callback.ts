/**
 * Promise forms of the node:fs callback functions that every command's start uses (the log writer
 * and its retention, plugin settings, search roots). node:fs/promises costs a process ~2 ms and
 * ~70 page faults to load, and a one-shot command needs nothing else from it, so the build loads
 * that module on first use (scripts/build.mjs LAZY_BUILTINS) and these paths keep it unloaded.
 * Written out rather than made with util.promisify, which cost this module's load ~0.4 ms.
 */
import {
  close,
  type MakeDirectoryOptions,
  type Mode,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  realpath,
  type Stats,
  stat,
  unlink,
  write,
} from 'node:fs';

/** Settles with the callback's error or its value. */
function settle<T>(run: (done: (error: NodeJS.ErrnoException | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value))));
}

export const openFd = (path: string, flags: string, mode?: Mode): Promise<number> => settle((done) => open(path, flags, mode, done));
export const closeFd = (fd: number): Promise<void> => settle<void>((done) => close(fd, (error) => done(error ?? null, undefined)));
/** Writes bytes from `offset` on at the file's position; resolves with how many were written. */
export const writeFd = (fd: number, data: Uint8Array, offset: number): Promise<{ bytesWritten: number }> =>
  settle((done) => write(fd, data, offset, data.byteLength - offset, null, (error, bytesWritten) => done(error, { bytesWritten })));
export const makeDirectory = (path: string, options: MakeDirectoryOptions): Promise<string | undefined> =>
  settle((done) => mkdir(path, options, done));
export const listDirectory = (path: string): Promise<string[]> => settle((done) => readdir(path, done));
export const readTextFile = (path: string): Promise<string> => settle((done) => readFile(path, 'utf8', done));
export const statPath = (path: string): Promise<Stats> => settle((done) => stat(path, done));
export const lstatPath = (path: string): Promise<Stats> => settle((done) => lstat(path, done));
/** The system's realpath(3), as node:fs/promises' realpath is (not node:fs's own walk). */
export const realPath = (path: string): Promise<string> => settle((done) => realpath.native(path, done));
export const unlinkPath = (path: string): Promise<void> => settle<void>((done) => unlink(path, (error) => done(error ?? null, undefined)));
