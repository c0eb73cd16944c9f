import { defineCommand } from '../../catalog/descriptor.js';
import { Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { git, gitFailed, notARepo } from './run-git.js';
import { COMMIT_SUMMARY, commitSummary } from './shared.js';

const input = RootObject({
  tag: Type.String({ minLength: 1, description: 'Tag name' }),
  message: Type.Optional(Type.String({ description: 'Annotation message (omit for a lightweight tag)' })),
  reference: Type.String({ minLength: 1, default: 'HEAD', description: 'Commit to tag' }),
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

export const tagCreate = defineCommand({
  id: 'git.tag.create',
  title: 'Create a tag',
  description: 'Create a local tag (lightweight, or annotated with a message) at a commit. Never pushes.',
  inputSchema: input,
  outputSchema: output,
  effects: {
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: false,
    effects: ['filesystem_write', 'process_spawn'],
    risk: 'medium',
    impact: 'Adds a tag to the local repository (undo with git tag -d); nothing is pushed.',
    reversibility: 'yes',
  },
  examples: [
    { description: 'Lightweight tag at HEAD', arguments: { tag: 'v1.2.0' } },
    { description: 'Annotated tag', arguments: { tag: 'v1.2.0', message: 'Release 1.2.0' } },
  ],
  cli: { positionals: ['tag'], aliases: { ref: 'reference' } },
  render: (o: Output) =>
    `created ${o.annotated ? 'annotated' : 'lightweight'} tag ${o.tag} at ${o.target_commit?.short_hash ?? o.reference}`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gitArgs =
      args.message === undefined
        ? ['tag', '--', args.tag, args.reference]
        : ['tag', '-a', '-m', args.message, '--', args.tag, args.reference];
    const out = await git(ctx, gitArgs);
    if (out.code !== 0) {
      if (notARepo(out.stderr)) {
        return {
          command: 'git.tag.create',
          in_git_repo: false,
          tag: args.tag,
          reference: args.reference,
          annotated: args.message !== undefined,
          target_commit: null,
        };
      }
      if (/already exists/i.test(out.stderr)) {
        throw new AhError({
          code: 'INVALID_ARGUMENT',
          message: `tag '${args.tag}' already exists`,
          cause: out.stderr,
          hint: 'Pick another name or delete the old tag first.',
          domain: 'git',
        });
      }
      if (/not a valid tag name/i.test(out.stderr)) {
        throw new AhError({ code: 'INVALID_ARGUMENT', message: `'${args.tag}' is not a valid tag name`, cause: out.stderr, domain: 'git' });
      }
      throw gitFailed(gitArgs, out);
    }
    return {
      command: 'git.tag.create',
      in_git_repo: true,
      tag: args.tag,
      reference: args.reference,
      annotated: args.message !== undefined,
      target_commit: await commitSummary(ctx, `${args.tag}^{commit}`),
    };
  },
});
