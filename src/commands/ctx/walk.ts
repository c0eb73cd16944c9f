/**
 * The files under a root in the search engine's walk order, with its ignore rules (.gitignore,
 * .ignore, .rgignore, git excludes, hidden entries, symlinks skipped and counted unless followed).
 * The walk itself is the engine's (inheritedLayers + walkSubtree from search/walk.ts); this
 * module only makes it resumable for an async consumer: the engine's walk is synchronous and
 * cannot pause, so it is run with a budget of files and, when the consumer wants more, run again
 * with four times the budget, skipping the files already handed out. Order is deterministic, so the
 * restarts see the same sequence; the total cost stays within a small factor of one full walk, and
 * a consumer that stops early (a limit) never pays for the rest of a large tree.
 */
import { inheritedLayers, walkSubtree } from '../search/walk.js';

interface WalkedFile {
  absolute: string;
  /** Relative to the root, forward slashes. */
  relative: string;
}

interface WalkCounters {
  /** Symlinks skipped by the walk so far (not followed). */
  symlinks: number;
}

const FIRST_BUDGET = 256;

/** Yields the root's files in walk order; `counters.symlinks` is current whenever a file is yielded. */
export async function* walkFiles(
  root: string,
  options: { followSymlinks: boolean; env: Readonly<Record<string, string | undefined>>; signal: AbortSignal },
  counters: WalkCounters,
): AsyncGenerator<WalkedFile> {
  let budget = FIRST_BUDGET;
  let handedOut = 0;
  for (;;) {
    if (options.signal.aborted) return;
    const context = inheritedLayers(root, options.env);
    const scope = { inRepo: context.inRepo, followSymlinks: options.followSymlinks, symlinks: 0 };
    const batch: WalkedFile[] = [];
    let seen = 0;
    const complete = walkSubtree(
      { absolute: root, relative: '', isDir: true },
      context.layers,
      scope,
      options.followSymlinks ? new Set<string>() : null,
      (absolutes, relatives) => {
        for (let i = 0; i < absolutes.length; i += 1) {
          if (seen >= handedOut) batch.push({ absolute: absolutes[i] as string, relative: relatives[i] as string });
          seen += 1;
        }
        return seen < budget;
      },
      () => options.signal.aborted,
    );
    counters.symlinks = Math.max(counters.symlinks, scope.symlinks);
    for (const file of batch) yield file;
    handedOut = seen;
    if (complete || options.signal.aborted) return;
    budget *= 4;
  }
}
