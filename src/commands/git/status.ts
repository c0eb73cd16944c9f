import { defineCommand } from '../../catalog/descriptor.js';
import { Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { git, READ_EFFECTS } from './run-git.js';
import { COMMIT_SUMMARY, commitSummary, NOT_A_REPO_TEXT, statusSnapshot } from './shared.js';

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

const OUTSIDE: Output = {
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

function render(o: Output): string {
  if (!o.in_git_repo) return NOT_A_REPO_TEXT;
  let head = `on ${o.branch ?? 'a detached HEAD'}`;
  if (o.upstream !== null) {
    head += o.ahead === null ? ` (upstream ${o.upstream} is gone)` : ` (${o.upstream}: ahead ${o.ahead}, behind ${o.behind})`;
  }
  const lines = [
    head,
    o.clean
      ? 'working tree clean'
      : `${o.changed_count} changed: ${o.staged_count} staged, ${o.unstaged_count} unstaged, ${o.untracked_count} untracked`,
    o.latest_commit ? `latest commit: ${o.latest_commit.short_hash} ${o.latest_commit.subject}` : 'no commits yet',
  ];
  if (o.latest_tag !== null) lines.push(`latest tag: ${o.latest_tag}`);
  return lines.join('\n');
}

export const status = defineCommand({
  id: 'git.status',
  title: 'Repository status',
  description:
    'Summarise the repository: branch (null on a detached HEAD), upstream with ahead/behind (null without an upstream), ' +
    'counts of changed paths (staged, unstaged, untracked; a conflict counts as unstaged), the latest commit (null in an ' +
    'empty repository) and the nearest tag. Outside a repository in_git_repo is false and the rest is empty, not an error.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [{ description: 'Status of the current repository', arguments: {} }],
  render,
  async run(_args: Static<typeof input>, ctx): Promise<Output> {
    // One porcelain snapshot plus the latest commit and nearest tag, all three at once.
    const [snapshot, latest, describe] = await Promise.all([
      statusSnapshot(ctx),
      commitSummary(ctx, 'HEAD'),
      git(ctx, ['describe', '--tags', '--abbrev=0']),
    ]);
    if (snapshot === null) return OUTSIDE;
    const entries = snapshot.entries;
    const hasAb = snapshot.upstream !== null && snapshot.ahead !== null;
    return {
      command: 'git.status',
      in_git_repo: true,
      branch: snapshot.branch,
      upstream: snapshot.upstream,
      ahead: hasAb ? snapshot.ahead : null,
      behind: hasAb ? snapshot.behind : null,
      clean: entries.length === 0,
      changed_count: entries.length,
      staged_count: entries.filter((e) => e.staged).length,
      unstaged_count: entries.filter((e) => e.unstaged).length,
      untracked_count: entries.filter((e) => e.status === 'untracked').length,
      latest_commit: latest,
      latest_tag: describe.code === 0 ? describe.stdout.toString('utf8').trim() || null : null,
    };
  },
});
