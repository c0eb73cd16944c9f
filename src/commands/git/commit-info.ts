import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { applyNumstat, parseNameStatus, total } from './commit-stats.js';
import { git, gitFailed, notARepo, nulFields, READ_EFFECTS } from './run-git.js';
import { displayPath, MAX_REF_LENGTH, NOT_A_REPO_TEXT } from './shared.js';

const input = RootObject({
  reference: Type.String({
    minLength: 1,
    maxLength: MAX_REF_LENGTH,
    default: 'HEAD',
    description: 'Commit, branch, tag or any git revision',
  }),
});
const PERSON = Closed({ name: Type.String(), email: Type.String() });
const FILE = Closed({
  path: Type.String(),
  old_path: Nullable(Type.String()),
  status: Nullable(Type.String()),
  additions: Nullable(Type.Integer({ minimum: 0 })),
  deletions: Nullable(Type.Integer({ minimum: 0 })),
});
const COMMIT = Closed({
  hash: Type.String(),
  short_hash: Type.String(),
  subject: Type.String(),
  body: Type.String(),
  author: PERSON,
  committer: PERSON,
  author_date: Nullable(Type.String()),
  committer_date: Nullable(Type.String()),
  file_count: Type.Integer({ minimum: 0 }),
  additions: Nullable(Type.Integer({ minimum: 0 })),
  deletions: Nullable(Type.Integer({ minimum: 0 })),
  truncated: Type.Boolean(),
  files: Type.Array(FILE),
});
const output = RootObject({
  command: Type.Literal('git.commit-info'),
  in_git_repo: Type.Boolean(),
  reference: Type.String(),
  commit: Nullable(COMMIT),
});
type Output = Static<typeof output>;
type Commit = Static<typeof COMMIT>;

const FORMAT = ['%H', '%h', '%an', '%ae', '%cn', '%ce', '%aI', '%cI', '%s', '%b'].join('%x00');

function render(o: Output): string {
  if (!o.in_git_repo || o.commit === null) return NOT_A_REPO_TEXT;
  const c = o.commit;
  const lines = [
    `commit ${c.hash}`,
    `Author: ${c.author.name} <${c.author.email}>`,
    `Date:   ${c.author_date ?? '-'}`,
    '',
    `    ${c.subject}`,
  ];
  if (c.body !== '') lines.push('', ...c.body.split('\n').map((l) => `    ${l}`.trimEnd()));
  lines.push('', `${c.file_count} file(s), +${c.additions ?? '-'} -${c.deletions ?? '-'}`);
  for (const f of c.files) {
    const name = `${f.old_path === null ? '' : `${displayPath(f.old_path)} -> `}${displayPath(f.path)}`;
    lines.push(`${String(f.additions ?? '-').padStart(6)} ${String(f.deletions ?? '-').padStart(6)}  ${name}`);
  }
  if (c.truncated) lines.push(`[showing ${c.files.length} of ${c.file_count} files]`);
  return lines.join('\n');
}

function unknownRevision(reference: string, cause: string): AhError {
  return new AhError({
    code: 'INVALID_ARGUMENT',
    message: `unknown revision '${reference}'`,
    cause: cause || `git could not resolve '${reference}' to a commit`,
    hint: "Check the name with 'ah git tags' or 'git log'; a repository without commits has no HEAD yet.",
    domain: 'git',
    operation: 'git.commit-info',
  });
}

export const commitInfo = defineCommand({
  id: 'git.commit-info',
  title: 'Commit details',
  description:
    'Show one commit: hashes, subject and body, author and committer, ISO 8601 dates, and the changed files with ' +
    'status and line counts (binary files have null counts; totals add up the text files; a merge is compared with ' +
    'its first parent). The limit caps files and sets commit.truncated. An unknown reference is INVALID_ARGUMENT.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [
    { description: 'The latest commit', arguments: {} },
    { description: 'A tagged release', arguments: { reference: 'v1.0.0' } },
  ],
  cli: { positionals: ['reference'], aliases: { ref: 'reference' } },
  render,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    // Resolve first: a clear error for bad names, and tags peel to their commit.
    const resolveArgs = ['rev-parse', '--verify', '--quiet', '--end-of-options', `${args.reference}^{commit}`];
    const resolved = await git(ctx, resolveArgs);
    if (resolved.code !== 0) {
      if (notARepo(resolved.stderr)) return { command: 'git.commit-info', in_git_repo: false, reference: args.reference, commit: null };
      if (resolved.code === 1 || /unknown revision|bad revision|ambiguous argument|needed a single revision/i.test(resolved.stderr)) {
        throw unknownRevision(args.reference, resolved.stderr);
      }
      throw gitFailed(resolveArgs, resolved);
    }
    const hash = resolved.stdout.toString('utf8').trim();
    const showArgs = ['show', '-s', '--encoding=UTF-8', `--format=${FORMAT}`, hash, '--'];
    // --root shows a first commit's files even if log.showRoot is off; -m --first-parent gives a
    // merge one plain diff against its first parent (and works on older gits than --diff-merges).
    const diffArgs = (mode: string) => ['show', '--format=', mode, '-z', '-M', '--root', '-m', '--first-parent', hash, '--'];
    const [head, names, numbers] = await Promise.all([
      git(ctx, showArgs),
      git(ctx, diffArgs('--name-status')),
      git(ctx, diffArgs('--numstat')),
    ]);
    // All three are `git show`, which is all a failure names.
    for (const out of [head, names, numbers]) if (out.code !== 0) throw gitFailed(showArgs, out);
    const [full, short, an, ae, cn, ce, ad, cd, subject, body] = head.stdout.toString('utf8').replace(/\n$/, '').split('\0');
    const files = parseNameStatus(nulFields(names.stdout));
    applyNumstat(files, nulFields(numbers.stdout));
    const shown = ctx.limit === null ? files : files.slice(0, ctx.limit);
    const commit: Commit = {
      hash: full ?? hash,
      short_hash: short ?? hash.slice(0, 7),
      subject: subject ?? '',
      body: (body ?? '').replace(/\s+$/, ''),
      author: { name: an ?? '', email: ae ?? '' },
      committer: { name: cn ?? '', email: ce ?? '' },
      author_date: ad || null,
      committer_date: cd || null,
      file_count: files.length,
      additions: total(files, 'additions'),
      deletions: total(files, 'deletions'),
      truncated: shown.length < files.length,
      files: shown,
    };
    return { command: 'git.commit-info', in_git_repo: true, reference: args.reference, commit };
  },
});
