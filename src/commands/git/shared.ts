/** Schemas and helpers shared by several git commands. */
import type { CommandContext } from '../../catalog/descriptor.js';
import { Closed, Nullable, Type } from '../../catalog/schema.js';
import { parsePorcelainV2, type PorcelainStatus } from './porcelain.js';
import { gitOrNull } from './run-git.js';

export const COMMIT_SUMMARY = Closed({ hash: Type.String(), short_hash: Type.String(), subject: Type.String() });
export const CHANGED_ENTRY = Closed({ path: Type.String(), old_path: Nullable(Type.String()), status: Type.String() });

export const STATUS_WORDS = 'Status words: modified, added, deleted, renamed, copied, type_changed, unmerged, untracked.';

/** One porcelain v2 snapshot, or null outside a repository. */
export async function statusSnapshot(ctx: CommandContext): Promise<PorcelainStatus | null> {
  const bytes = await gitOrNull(ctx, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all']);
  return bytes === null ? null : parsePorcelainV2(bytes);
}

/** {hash, short_hash, subject} of a revision, or null when it does not exist (e.g. empty repo). */
export async function commitSummary(ctx: CommandContext, revision: string) {
  const bytes = await gitOrNull(ctx, ['log', '-1', '--format=%H%x00%h%x00%s', revision, '--']).catch(() => null);
  if (bytes === null) return null;
  const [hash, short, subject] = bytes.toString('utf8').replace(/\n$/, '').split('\0');
  if (!hash) return null;
  return { hash, short_hash: short ?? hash.slice(0, 7), subject: subject ?? '' };
}
