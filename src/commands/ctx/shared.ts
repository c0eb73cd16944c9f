/** Presets, schemas and file reading shared by ctx pack and ctx symbols. */
import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync } from 'node:fs';
import type { Effects } from '../../catalog/effects.js';
import { AhError } from '../../errors.js';
import { Closed, Type } from '../../catalog/schema.js';
import { readUnlessBinarySync } from '../../platform/sniffed-read.js';
import { MAX_TEXT_FILE_BYTES } from '../../platform/text.js';

export const PRESETS = {
  summary: { limit: 80, previews: 4, symbolsPerFile: 20 },
  review: { limit: 200, previews: 8, symbolsPerFile: 80 },
  debug: { limit: 500, previews: 16, symbolsPerFile: 200 },
} as const;
type PresetName = keyof typeof PRESETS;

export const PRESET = Type.Union([Type.Literal('summary'), Type.Literal('review'), Type.Literal('debug')], {
  default: 'review',
  description:
    'How much to return: summary (80 items, 4 symbol previews per file, 20 symbols per file), review (200 / 8 / 80), debug (500 / 16 / 200). An explicit limit replaces the item or file count.',
});
export const MAX_BYTES = Type.Integer({
  minimum: 1,
  maximum: MAX_TEXT_FILE_BYTES,
  default: 8 * 1024 * 1024,
  description: 'Skip files larger than this many bytes',
});
export const FOLLOW_SYMLINKS = Type.Boolean({
  default: false,
  description: 'Follow symbolic links (otherwise they are counted and skipped)',
});

export const SYMBOL = Closed({ kind: Type.String(), line: Type.Integer({ minimum: 1 }), name: Type.String() });

export const CTX_EFFECTS: Effects = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  effects: ['filesystem_read'],
  risk: 'low',
  impact: 'Reads files under the given paths; changes nothing.',
  reversibility: 'yes',
};

/** The effective item or file cap: an explicit limit wins over the preset's. */
export function capOf(preset: PresetName, limit: number | null): number {
  return limit ?? PRESETS[preset].limit;
}

type Loaded = { kind: 'text'; text: string; size: number } | { kind: 'binary' | 'large' | 'unreadable'; size: number };

/**
 * Reads a whole regular file when it is at most maxBytes and valid UTF-8 without a NUL in its
 * first 8 KiB. Invalid UTF-8 anywhere in the file makes it binary (a skip, never a failure). A NUL
 * in the first read settles that before the rest is read. The walk hands over regular files only,
 * so the open cannot block on a FIFO.
 */
function loadFile(path: string, maxBytes: number): Loaded {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { kind: 'unreadable', size: 0 };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { kind: 'unreadable', size: 0 };
    if (info.size > maxBytes) return { kind: 'large', size: info.size };
    const bytes = readUnlessBinarySync(fd, info.size);
    if (bytes === null || !isUtf8(bytes)) return { kind: 'binary', size: info.size };
    return { kind: 'text', text: bytes.toString('utf8'), size: bytes.length };
  } catch {
    return { kind: 'unreadable', size: 0 };
  } finally {
    closeSync(fd);
  }
}

/**
 * A pause to call after each file of a walk: every 16th call gives the event loop a turn (file
 * reads and regex passes are synchronous) and then stops a cancelled call.
 */
export function pacer(signal: AbortSignal): () => Promise<void> {
  let sinceYield = 0;
  return async () => {
    sinceYield += 1;
    if (sinceYield < 16) return;
    sinceYield = 0;
    await new Promise((resolve) => setImmediate(resolve));
    if (signal.aborted) throw signal.reason;
  };
}

/** Loads a file for a listing; a binary or oversize one is counted in `skips` and gives null. */
export function loadCounted(
  path: string,
  maxBytes: number,
  skips: { skipped_binary_files: number; skipped_large_files: number },
): { text: string; size: number } | null {
  const loaded = loadFile(path, maxBytes);
  if (loaded.kind === 'binary') skips.skipped_binary_files += 1;
  else if (loaded.kind === 'large') skips.skipped_large_files += 1;
  return loaded.kind === 'text' ? loaded : null;
}

export function pathNotFound(path: string): AhError {
  return new AhError({
    code: 'PATH_NOT_FOUND',
    message: `no such file or directory: ${path}`,
    hint: 'Check the path, or set --cwd / context.cwd.',
  });
}
