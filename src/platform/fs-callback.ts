/**
 * Promise forms of the node:fs callback functions that every command's start uses (the log writer
 * and its retention, plugin settings, search roots). node:fs/promises costs a process ~2 ms and
 * ~70 page faults to load, and a one-shot command needs nothing else from it, so the build loads
 * that module on first use (scripts/build.mjs LAZY_BUILTINS) and these paths keep it unloaded.
 */
import { close, lstat, mkdir, open, readdir, readFile, realpath, stat, unlink, write } from 'node:fs';
import { promisify } from 'node:util';

export const openFd = promisify(open);
export const closeFd = promisify(close);
export const writeFd = promisify(write);
export const makeDirectory = promisify(mkdir);
export const listDirectory = promisify(readdir);
export const readTextFile = promisify(readFile);
export const statPath = promisify(stat);
/** The system's realpath(3), as node:fs/promises' realpath is (not node:fs's own walk). */
export const realPath = promisify(realpath.native);
export const lstatPath = promisify(lstat);
export const unlinkPath = promisify(unlink);
