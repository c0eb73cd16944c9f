/** Schemas and helpers shared by several git commands. */
import type { CommandContext } from '../../catalog/descriptor.js';
import { Closed, Nullable, type Static, Type } from '../../catalog/schema.js';
import { parsePorcelainV2, type PorcelainStatus } from './porcelain.js';
import { git, gitOrNull } from './run-git.js';

/** Ceilings for every size an agent can pass (issue 20: no unbounded input). */
export const MAX_PATH_LENGTH = 4096;
export const MAX_REF_LENGTH = 1024;
export const MAX_MESSAGE_LENGTH = 1_000_000;
export const MAX_LINE_NUMBER = 100_000_000;

export const COMMIT_SUMMARY = Closed({ hash: Type.String(), short_hash: Type.String(), subject: Type.String() });
export const CHANGED_ENTRY = Closed({ path: Type.String(), old_path: Nullable(Type.String()), status: Type.String() });

export const STATUS_WORDS =
  'Entry status is one of: modified, added, deleted, renamed, copied (both keep old_path), type_changed, unmerged (a conflict), untracked.';

/**
 * One porcelain v2 snapshot (untracked files listed one by one), or null outside a repository.
 * A damaged index or any other git failure throws COMMAND_FAILED with git's stderr as the cause.
 */
export async function statusSnapshot(ctx: CommandContext): Promise<PorcelainStatus | null> {
  const out = await gitOrNull(ctx, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all']);
  return out === null ? null : parsePorcelainV2(out.stdout);
}

/** {hash, short_hash, subject} of a revision, or null when it does not resolve (e.g. an empty repo). */
export async function commitSummary(ctx: CommandContext, revision: string): Promise<Static<typeof COMMIT_SUMMARY> | null> {
  const out = await git(ctx, ['log', '-1', '--no-walk', '--format=%H%x00%h%x00%s', '--end-of-options', revision, '--']);
  if (out.code !== 0) return null;
  const [hash, short, subject] = out.stdout.toString('utf8').replace(/\n$/, '').split('\0');
  if (!hash) return null;
  return { hash, short_hash: short ?? hash.slice(0, 7), subject: subject ?? '' };
}

/** Paths with control characters (a newline in a file name) are quoted so one entry stays one line. */
export function displayPath(path: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we look for.
  return /[\u0000-\u001f\u007f]/.test(path) ? JSON.stringify(path) : path;
}

/** The text returned when cwd is outside a work tree. */
export const NOT_A_REPO_TEXT = 'not a git repository';
