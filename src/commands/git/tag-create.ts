import { defineCommand } from '../../catalog/descriptor.js';
import { Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { git, gitFailed, notARepo } from './run-git.js';
import { COMMIT_SUMMARY, commitSummary, MAX_MESSAGE_LENGTH, MAX_REF_LENGTH } from './shared.js';

const input = RootObject({
  tag: Type.String({ minLength: 1, maxLength: MAX_REF_LENGTH, description: 'Name of the new tag' }),
  message: Type.Optional(
    Type.String({ minLength: 1, maxLength: MAX_MESSAGE_LENGTH, description: 'Annotation message; without one the tag is lightweight' }),
  ),
  reference: Type.String({ minLength: 1, maxLength: MAX_REF_LENGTH, default: 'HEAD', description: 'Commit (or any revision) to tag' }),
});
const output = RootObject({
  command: Type.Literal('git.tag.create'),
  in_git_repo: Type.Boolean(),
  tag: Type.String(),
  reference: Type.String(),
  annotated: Type.Boolean(),
  target_commit: Nullable(COMMIT_SUMMARY),
});
type Output = Static<typeof output>;

function invalid(message: string, cause: string, hint: string): AhError {
  return new AhError({ code: 'INVALID_ARGUMENT', message, cause, hint, domain: 'git', operation: 'git.tag.create' });
}

export const tagCreate = defineCommand({
  id: 'git.tag.create',
  title: 'Create a tag',
  description:
    'Create a local tag at a commit: lightweight without a message, annotated with one. Never pushes and never moves ' +
    'an existing tag (that is INVALID_ARGUMENT). Outside a repository in_git_repo is false and nothing is created.',
  inputSchema: input,
  outputSchema: output,
  effects: {
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: false,
    effects: ['filesystem_write', 'process_spawn'],
    risk: 'medium',
    impact: 'Adds one tag to the local repository (undo with git tag -d <tag>); nothing is pushed.',
    reversibility: 'yes',
  },
  examples: [
    { description: 'Lightweight tag at HEAD', arguments: { tag: 'v1.2.0' } },
    { description: 'Annotated tag on an earlier commit', arguments: { tag: 'v1.2.0', message: 'Release 1.2.0', reference: 'HEAD~1' } },
  ],
  cli: { positionals: ['tag'], aliases: { ref: 'reference' } },
  render: (o: Output) =>
    o.in_git_repo
      ? `created ${o.annotated ? 'annotated' : 'lightweight'} tag ${o.tag} at ${o.target_commit ? `${o.target_commit.short_hash} ${o.target_commit.subject}` : o.reference}`
      : 'not a git repository; no tag created',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const annotated = args.message !== undefined;
    // `--` ends the options, so neither the name nor the revision can be read as a flag.
    const gitArgs = annotated
      ? ['tag', '-a', '-m', args.message as string, '--', args.tag, args.reference]
      : ['tag', '--', args.tag, args.reference];
    const out = await git(ctx, gitArgs, { writes: true });
    if (out.code !== 0) {
      if (notARepo(out.stderr)) {
        return { command: 'git.tag.create', in_git_repo: false, tag: args.tag, reference: args.reference, annotated, target_commit: null };
      }
      if (/already exists/i.test(out.stderr)) {
        throw invalid(`tag '${args.tag}' already exists`, out.stderr, 'Pick another name, or delete the old tag first with git tag -d.');
      }
      if (/not a valid tag name/i.test(out.stderr)) {
        throw invalid(`'${args.tag}' is not a valid tag name`, out.stderr, "Tag names follow git's ref rules (see git check-ref-format).");
      }
      if (/failed to resolve|not a valid (object|ref)|unknown revision|needed a single revision/i.test(out.stderr)) {
        throw invalid(
          `unknown revision '${args.reference}'`,
          out.stderr,
          "Check the revision with 'ah git commit-info'; a repository without commits has no HEAD yet.",
        );
      }
      throw gitFailed(gitArgs, out);
    }
    return {
      command: 'git.tag.create',
      in_git_repo: true,
      tag: args.tag,
      reference: args.reference,
      annotated,
      target_commit: await commitSummary(ctx, `refs/tags/${args.tag}^{commit}`),
    };
  },
});
