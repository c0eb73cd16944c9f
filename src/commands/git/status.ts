import { defineCommand } from '../../catalog/descriptor.js';
import { Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { READ_EFFECTS, gitOrNull } from './run-git.js';
import { COMMIT_SUMMARY, commitSummary, statusSnapshot } from './shared.js';

const input = RootObject({});
const output = RootObject({
  command: Type.Literal('git.status'),
  in_git_repo: Type.Boolean(),
  branch: Nullable(Type.String()),
  upstream: Nullable(Type.String()),
  ahead: Nullable(Type.Integer({ minimum: 0 })),
  behind: Nullable(Type.Integer({ minimum: 0 })),
  clean: Type.Boolean(),
  changed_count: Type.Integer({ minimum: 0 }),
  staged_count: Type.Integer({ minimum: 0 }),
  unstaged_count: Type.Integer({ minimum: 0 }),
  untracked_count: Type.Integer({ minimum: 0 }),
  latest_commit: Nullable(COMMIT_SUMMARY),
  latest_tag: Nullable(Type.String()),
});
type Output = Static<typeof output>;

export const status = defineCommand({
  id: 'git.status',
  title: 'Repository status',
  description:
    'Summarise the repository: branch, upstream and ahead/behind, counts of staged, unstaged and untracked changes, latest commit and tag. Outside a repository in_git_repo is false.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [{ description: 'Status of the current repository', arguments: {} }],
  render: (o: Output) => {
    if (!o.in_git_repo) return 'not a git repository';
    const lines = [`branch: ${o.branch ?? '(detached)'}${o.upstream ? ` -> ${o.upstream} (ahead ${o.ahead}, behind ${o.behind})` : ''}`];
    lines.push(
      o.clean
        ? 'clean'
        : `${o.changed_count} changed: ${o.staged_count} staged, ${o.unstaged_count} unstaged, ${o.untracked_count} untracked`,
    );
    if (o.latest_commit) lines.push(`latest commit: ${o.latest_commit.short_hash} ${o.latest_commit.subject}`);
    if (o.latest_tag) lines.push(`latest tag: ${o.latest_tag}`);
    return lines.join('\n');
  },
  async run(_args: Static<typeof input>, ctx): Promise<Output> {
    // One status snapshot plus log and describe, concurrently.
    const [snapshot, latest, tag] = await Promise.all([
      statusSnapshot(ctx),
      commitSummary(ctx, 'HEAD'),
      gitOrNull(ctx, ['describe', '--tags', '--abbrev=0']).catch(() => null),
    ]);
    if (snapshot === null) {
      return {
        command: 'git.status',
        in_git_repo: false,
        branch: null,
        upstream: null,
        ahead: null,
        behind: null,
        clean: true,
        changed_count: 0,
        staged_count: 0,
        unstaged_count: 0,
        untracked_count: 0,
        latest_commit: null,
        latest_tag: null,
      };
    }
    const entries = snapshot.entries;
    const tagName = tag?.toString('utf8').trim() || null;
    return {
      command: 'git.status',
      in_git_repo: true,
      branch: snapshot.branch,
      upstream: snapshot.upstream,
      ahead: snapshot.upstream ? snapshot.ahead : null,
      behind: snapshot.upstream ? snapshot.behind : null,
      clean: entries.length === 0,
      changed_count: entries.length,
      staged_count: entries.filter((e) => e.staged).length,
      unstaged_count: entries.filter((e) => e.unstaged).length,
      untracked_count: entries.filter((e) => e.status === 'untracked').length,
      latest_commit: latest,
      latest_tag: tagName,
    };
  },
});
