/**
 * Which directories a file may be opened (or lstat-ed) in synchronously, on the calling thread.
 *
 * An asynchronous open is a round trip through libuv's thread pool: the request is queued, a pool
 * thread wakes, and the event loop is woken again with the result. For a small file that round trip
 * costs more than the open itself, and at 32 calls in flight it was the largest single cost of
 * `file.read` (a synchronous open served 15–20 % more calls per second, issue 19). The risk of a
 * synchronous open is a path lookup that never returns: a network or FUSE file system that stops
 * answering would then stop the whole server, not one pool thread.
 *
 * So a directory earns the synchronous open: its path and its real path (symbolic links resolved)
 * must lie only under mounts of local disk or memory file systems, as /proc/self/mountinfo lists
 * them. The evidence is gathered in the background after an ordinary asynchronous open there, and
 * the verdict, trusted or not, expires after TRUST_MS, as does the mount table it was checked
 * against. Off Linux (no mountinfo) no directory qualifies and every open stays asynchronous.
 */
import { realPath } from './fs-callback.js';
import { readTextIfPresent } from './read-text.js';
import { dirname, normalize, sep } from 'node:path';

/** How long a directory's evidence, and the mount table behind it, are trusted. */
const TRUST_MS = 5000;
/** Directories remembered at once; past this the map starts over (it is only a cache). */
const MAX_DIRECTORIES = 4096;

/** File systems whose lookups are served by this machine's own kernel, from disk or memory. */
const LOCAL_TYPES = new Set([
  'ext2',
  'ext3',
  'ext4',
  'xfs',
  'btrfs',
  'zfs',
  'f2fs',
  'jfs',
  'reiserfs',
  'bcachefs',
  'nilfs2',
  'tmpfs',
  'ramfs',
  'rootfs',
  'overlay',
  'squashfs',
  'erofs',
  'vfat',
  'exfat',
  'ntfs3',
]);

export interface Mount {
  /** Where it is mounted, with mountinfo's octal escapes decoded. */
  point: string;
  type: string;
}

/** mountinfo escapes space, tab, newline and backslash as \ooo. */
function decodeEscapes(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/** The mounts of a /proc/<pid>/mountinfo text (the type is the first field after the "-"). */
export function parseMountInfo(text: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    const separator = fields.indexOf('-', 6);
    const point = fields[4];
    const type = fields[separator + 1];
    if (separator === -1 || point === undefined || type === undefined) continue;
    mounts.push({ point: decodeEscapes(point), type });
  }
  return mounts;
}

/** True when every mount that `path` (absolute, normalised) lies under is a local file system. */
export function underLocalMounts(path: string, mounts: readonly Mount[]): boolean {
  let covered = false;
  for (const { point, type } of mounts) {
    const above = point === '/' || path === point || path.startsWith(`${point}/`);
    if (!above) continue;
    if (!LOCAL_TYPES.has(type)) return false;
    covered = true;
  }
  return covered;
}

export interface LocalDirectories {
  /** True when an entry directly in `dir` may be looked up synchronously now. */
  trusted(dir: string): boolean;
  /**
   * Gathers evidence for `dir` in the background (once at a time per directory). A verdict either
   * way stands for TRUST_MS: a directory found remote is not resolved again on every open.
   */
  learn(dir: string): Promise<void>;
}

/** `readMounts` resolves with mountinfo's text, or null where there is none. */
export function localDirectories(readMounts: () => Promise<string | null>, now: () => number = Date.now): LocalDirectories {
  /** Each directory's verdict and when it expires. */
  const verdicts = new Map<string, { local: boolean; until: number }>();
  const learning = new Set<string>();
  /** The directory's verdict while it holds; an expired one is dropped. */
  const current = (dir: string) => {
    const verdict = verdicts.get(dir);
    if (verdict === undefined) return undefined;
    if (verdict.until > now()) return verdict;
    verdicts.delete(dir);
    return undefined;
  };
  const decide = (dir: string, local: boolean) => {
    if (verdicts.size >= MAX_DIRECTORIES) verdicts.clear();
    verdicts.set(dir, { local, until: now() + TRUST_MS });
  };
  let table: { mounts: Mount[]; read: number } | null = null;
  let unsupported = false;

  const mounts = async (): Promise<Mount[] | null> => {
    if (table !== null && now() - table.read < TRUST_MS) return table.mounts;
    const text = await readMounts();
    if (text === null) {
      unsupported = true;
      return null;
    }
    table = { mounts: parseMountInfo(text), read: now() };
    return table.mounts;
  };

  return {
    trusted(dir) {
      return current(dir)?.local === true;
    },
    async learn(dir) {
      if (unsupported || learning.has(dir) || current(dir) !== undefined) return;
      learning.add(dir);
      try {
        const list = await mounts();
        if (list === null) return;
        decide(dir, underLocalMounts(dir, list) && underLocalMounts(await realPath(dir), list));
      } catch {
        // A directory that cannot be resolved earns nothing; its opens stay asynchronous.
        decide(dir, false);
      } finally {
        learning.delete(dir);
      }
    },
  };
}

const readProcMounts = () => readTextIfPresent('/proc/self/mountinfo').catch(() => null);

let shared: LocalDirectories | null = null;

/** The process-wide instance, reading this process's own mount table. */
export function processLocalDirectories(): LocalDirectories {
  shared ??= localDirectories(readProcMounts);
  return shared;
}

/**
 * Whether a lookup of `path` (an absolute path) may run on the calling thread now: it names an
 * entry directly inside a trusted directory. A path that is not normalized or ends in a separator
 * is never taken synchronously: `..` after a symbolic link, or a trailing slash after one, would
 * lead the lookup out of the directory that was checked. Otherwise the directory's evidence is
 * gathered in the background for a later lookup.
 */
export function mayLookUpSynchronously(path: string, local: LocalDirectories = processLocalDirectories()): boolean {
  const dir = dirname(path);
  if (local.trusted(dir)) return !path.endsWith(sep) && normalize(path) === path;
  void local.learn(dir);
  return false;
}
