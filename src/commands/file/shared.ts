/** Schemas and result building shared by the file commands. */
import type { Dirent } from 'node:fs';
import type { Effects } from '../../catalog/effects.js';
import { Nullable, RootObject, Type } from '../../catalog/schema.js';
import { MAX_TEXT_FILE_BYTES } from '../../platform/text.js';
import { DEFAULT_MAX_BYTES, numberLines } from './load-text.js';

/** The largest line count or line number accepted (int32: no input reaches an unsafe number). */
export const MAX_LINES = 2_147_483_647;

export const READ_EFFECTS: Effects = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  effects: ['filesystem_read'],
  risk: 'low',
  impact: 'Reads a file or directory listing; changes nothing.',
  reversibility: 'yes',
};

export const PATH = Type.String({ minLength: 1, maxLength: 4096, description: 'File path, relative to the working directory' });
export const NUMBER_LINES = Type.Boolean({ default: false, description: 'Prefix each line with its line number' });
export const MAX_BYTES = Type.Integer({
  minimum: 1,
  maximum: MAX_TEXT_FILE_BYTES,
  default: DEFAULT_MAX_BYTES,
  description: 'Refuse files larger than this many bytes (at most 64 MiB)',
});
export const FOLLOW_SYMLINKS = Type.Boolean({ default: false, description: 'Read through symbolic links' });
/** The input of head and tail; how many lines is bounded so no input asks for an unbounded result. */
export const LINES_INPUT = RootObject({
  path: PATH,
  lines: Type.Integer({ minimum: 0, maximum: MAX_LINES, default: 20, description: 'How many lines to return' }),
  number_lines: NUMBER_LINES,
  max_bytes: MAX_BYTES,
  follow_symlinks: FOLLOW_SYMLINKS,
});

export function textOutput<C extends string>(command: C) {
  return RootObject({
    command: Type.Literal(command),
    path: Type.String(),
    from: Nullable(Type.Integer({ minimum: 1 })),
    to: Nullable(Type.Integer({ minimum: 1 })),
    numbered: Type.Boolean(),
    line_count: Type.Integer({ minimum: 0 }),
    truncated: Type.Boolean(),
    content: Type.String(),
  });
}

/**
 * Builds the shared result from the selected lines, cut to the caller's limit. Without a range,
 * from/to are the source line numbers of the lines returned (null when none are).
 */
export function textResult<C extends string>(
  command: C,
  path: string,
  selected: readonly string[],
  firstLine: number,
  numbered: boolean,
  limit: number | null,
  range?: { from: number | null; to: number | null },
) {
  const truncated = limit !== null && selected.length > limit;
  const lines = truncated ? selected.slice(0, limit) : selected;
  const shown = numbered ? numberLines(lines, firstLine) : lines;
  const { from, to } = range ?? (lines.length === 0 ? { from: null, to: null } : { from: firstLine, to: firstLine + lines.length - 1 });
  return { command, path, from, to, numbered, line_count: lines.length, truncated, content: shown.join('\n') };
}

/** What read, head and tail declare alike. */
export const TEXT_COMMAND = {
  effects: READ_EFFECTS,
  cli: { positionals: ['path'], short: { n: 'number_lines' } },
  render: (result: { content: string; truncated: boolean; line_count: number }): string =>
    result.truncated ? `${result.content}\n[truncated after ${result.line_count} lines]` : result.content,
} as const;

/** What a directory entry or path is, as file tree and file stat report it. */
export const ENTRY_KIND = Type.Union([Type.Literal('file'), Type.Literal('directory'), Type.Literal('symlink'), Type.Literal('other')]);

export function entryKind(d: Pick<Dirent, 'isSymbolicLink' | 'isDirectory' | 'isFile'>): 'file' | 'directory' | 'symlink' | 'other' {
  return d.isSymbolicLink() ? 'symlink' : d.isDirectory() ? 'directory' : d.isFile() ? 'file' : 'other';
}
