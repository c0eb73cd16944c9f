import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { git, gitFailed, notARepo, READ_EFFECTS } from './run-git.js';
import { MAX_LINE_NUMBER, MAX_PATH_LENGTH } from './shared.js';

const input = RootObject({
  path: Type.String({ minLength: 1, maxLength: MAX_PATH_LENGTH, description: 'File to blame' }),
  line: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LINE_NUMBER, description: 'Only this line' })),
});
const ENTRY = Closed({
  line: Type.Integer({ minimum: 1 }),
  commit: Type.String(),
  author: Type.String(),
  author_mail: Type.String(),
  author_time: Nullable(Type.Integer()),
  summary: Type.String(),
  text: Type.String(),
});
const output = RootObject({
  command: Type.Literal('git.blame'),
  path: Type.String(),
  line_filter: Nullable(Type.Integer({ minimum: 1 })),
  entry_count: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
  entries: Type.Array(ENTRY),
});
type Output = Static<typeof output>;
type Entry = Static<typeof ENTRY>;

/** Parses `git blame --porcelain`: headers per commit appear once, then are reused. */
export function parseBlame(text: string): Entry[] {
  const commits = new Map<string, { author: string; author_mail: string; author_time: number | null; summary: string }>();
  const entries: Entry[] = [];
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length) {
    const header = /^([0-9a-f]{40,64}) \d+ (\d+)/.exec(lines[i] ?? '');
    i += 1;
    if (!header) continue;
    const hash = header[1] as string;
    const info = commits.get(hash) ?? { author: '', author_mail: '', author_time: null, summary: '' };
    while (i < lines.length && !(lines[i] ?? '').startsWith('\t')) {
      const line = lines[i] as string;
      const space = line.indexOf(' ');
      const key = space === -1 ? line : line.slice(0, space);
      const value = space === -1 ? '' : line.slice(space + 1);
      if (key === 'author') info.author = value;
      else if (key === 'author-mail') info.author_mail = value.replace(/^<|>$/g, '');
      else if (key === 'author-time') info.author_time = Number(value);
      else if (key === 'summary') info.summary = value;
      i += 1;
    }
    commits.set(hash, info);
    entries.push({ line: Number(header[2]), commit: hash, ...info, text: (lines[i] ?? '').slice(1) });
    i += 1;
  }
  return entries;
}

export const blame = defineCommand({
  id: 'git.blame',
  title: 'Blame a file',
  description:
    'Show, for each line of a file (or just one line), the commit, author, author e-mail (without angle brackets), author ' +
    'time (Unix seconds) and commit summary that last changed it. Lines not committed yet carry the all-zero commit. ' +
    'entry_count counts the entries returned; the limit caps them and sets truncated.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [
    { description: 'Blame a file', arguments: { path: 'README.md' } },
    { description: 'Who changed line 10', arguments: { path: 'src/main.ts', line: 10 } },
  ],
  cli: { positionals: ['path'] },
  render: (o: Output) => {
    if (o.entries.length === 0) return 'no lines';
    const lines = o.entries.map(
      (e) => `${e.commit.slice(0, 8)} (${e.author.padEnd(16).slice(0, 16)} ${String(e.line).padStart(5)}) ${e.text}`,
    );
    if (o.truncated) lines.push(`[truncated after ${o.entry_count} lines]`);
    return lines.join('\n');
  },
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const range = args.line ? ['-L', `${args.line},${args.line}`] : [];
    const gitArgs = ['blame', '--porcelain', '--encoding=UTF-8', ...range, '--', args.path];
    const out = await git(ctx, gitArgs);
    if (out.code !== 0) {
      const fail = (code: string, message: string, hint?: string) => new AhError({ code, message, cause: out.stderr, hint, domain: 'git' });
      if (notARepo(out.stderr)) throw fail('COMMAND_FAILED', 'not a git repository', 'Run it inside a repository or pass --cwd.');
      if (/no such path|no such file/i.test(out.stderr)) {
        const hint = 'Check the path (relative to the working directory) or --cwd; untracked files have no history.';
        throw fail('FILE_NOT_FOUND', `${args.path} is not tracked or does not exist`, hint);
      }
      if (/has only \d+ lines?/i.test(out.stderr)) throw fail('INVALID_RANGE', `line ${args.line} is past the end of ${args.path}`);
      throw gitFailed(gitArgs, out);
    }
    const all = parseBlame(out.stdout.toString('utf8'));
    const entries = ctx.limit === null ? all : all.slice(0, ctx.limit);
    return {
      command: 'git.blame',
      path: args.path,
      line_filter: args.line ?? null,
      entry_count: entries.length,
      truncated: entries.length < all.length,
      entries,
    };
  },
});
