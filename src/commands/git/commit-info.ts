import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { statusName } from './porcelain.js';
import { git, gitFailed, notARepo, nulFields, READ_EFFECTS } from './run-git.js';

const input = RootObject({ reference: Type.String({ minLength: 1, default: 'HEAD', description: 'Commit, branch or tag' }) });
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
type FileEntry = Static<typeof FILE>;

const FORMAT = ['%H', '%h', '%an', '%ae', '%cn', '%ce', '%aI', '%cI', '%s', '%b'].join('%x00');

/** `--name-status -z` records: status, path[, new path for renames/copies]. */
function parseNameStatus(fields: string[]): FileEntry[] {
  const files: FileEntry[] = [];
  for (let i = 0; i < fields.length; ) {
    const code = fields[i] ?? '';
    if (code === '') {
      i += 1;
      continue;
    }
    if (code.startsWith('R') || code.startsWith('C')) {
      files.push({
        path: fields[i + 2] ?? '',
        old_path: fields[i + 1] ?? null,
        status: statusName(`${code[0]}.`),
        additions: null,
        deletions: null,
      });
      i += 3;
    } else {
      files.push({ path: fields[i + 1] ?? '', old_path: null, status: statusName(`${code[0]}.`), additions: null, deletions: null });
      i += 2;
    }
  }
  return files;
}

/** `--numstat -z`: "A\tD\tpath" or, for renames, "A\tD\t" then old and new path fields. */
function applyNumstat(files: FileEntry[], fields: string[]): void {
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (let i = 0; i < fields.length; ) {
    const record = fields[i] ?? '';
    const [a, d, path] = record.split('\t');
    let target = path ?? '';
    i += 1;
    if (target === '' && record !== '') {
      target = fields[i + 1] ?? '';
      i += 2;
    }
    const file = byPath.get(target);
    if (!file) continue;
    // Binary files report '-' for both counts.
    file.additions = a === '-' || a === undefined ? null : Number(a);
    file.deletions = d === '-' || d === undefined ? null : Number(d);
  }
}

export const commitInfo = defineCommand({
  id: 'git.commit-info',
  title: 'Commit details',
  description:
    'Show one commit: hashes, subject and body, author and committer, dates, and changed files with line counts (binary files have null counts).',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [
    { description: 'The latest commit', arguments: {} },
    { description: 'A tagged release', arguments: { reference: 'v1.0.0' } },
  ],
  cli: { positionals: ['reference'], aliases: { ref: 'reference' } },
  render: (o: Output) => {
    if (!o.in_git_repo || !o.commit) return 'not a git repository';
    const c = o.commit;
    const lines = [`commit ${c.hash}`, `Author: ${c.author.name} <${c.author.email}>  ${c.author_date ?? ''}`, '', `    ${c.subject}`];
    if (c.body.trim() !== '')
      lines.push(
        '',
        ...c.body
          .trimEnd()
          .split('\n')
          .map((l) => `    ${l}`),
      );
    lines.push(
      '',
      ...c.files.map(
        (f) =>
          `${String(f.additions ?? '-').padStart(5)} ${String(f.deletions ?? '-').padStart(5)}  ${f.old_path ? `${f.old_path} -> ` : ''}${f.path}`,
      ),
    );
    return lines.join('\n');
  },
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const show = ['show', '-s', `--format=${FORMAT}`, args.reference, '--'];
    const head = await git(ctx, show);
    if (head.code !== 0) {
      if (notARepo(head.stderr)) return { command: 'git.commit-info', in_git_repo: false, reference: args.reference, commit: null };
      if (/unknown revision|bad revision|ambiguous argument|does not have any commits/i.test(head.stderr)) {
        throw new AhError({
          code: 'INVALID_ARGUMENT',
          message: `unknown revision '${args.reference}'`,
          cause: head.stderr,
          hint: "Check the name with 'ah git tags' or git log.",
          domain: 'git',
        });
      }
      throw gitFailed(show, head);
    }
    const [hash, short, an, ae, cn, ce, ad, cd, subject, body] = head.stdout.toString('utf8').replace(/\n$/, '').split('\0');
    const diffArgs = (mode: string) => ['show', '--format=', mode, '-z', '-M', '--no-color', '--no-ext-diff', args.reference, '--'];
    const [names, numbers] = await Promise.all([git(ctx, diffArgs('--name-status')), git(ctx, diffArgs('--numstat'))]);
    const files = parseNameStatus(nulFields(names.stdout));
    applyNumstat(files, nulFields(numbers.stdout));
    const counted = files.every((f) => f.additions !== null);
    const shown = ctx.limit === null ? files : files.slice(0, ctx.limit);
    return {
      command: 'git.commit-info',
      in_git_repo: true,
      reference: args.reference,
      commit: {
        hash: hash ?? '',
        short_hash: short ?? '',
        subject: subject ?? '',
        body: body ?? '',
        author: { name: an ?? '', email: ae ?? '' },
        committer: { name: cn ?? '', email: ce ?? '' },
        author_date: ad || null,
        committer_date: cd || null,
        file_count: files.length,
        additions: counted ? files.reduce((n, f) => n + (f.additions ?? 0), 0) : null,
        deletions: counted ? files.reduce((n, f) => n + (f.deletions ?? 0), 0) : null,
        truncated: shown.length < files.length,
        files: shown,
      },
    };
  },
});
