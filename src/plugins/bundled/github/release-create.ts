import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { TAG } from './release-get.js';
import { COMMON, githubClient, stateless, textInput, TOKEN_SLOT, writeEffects } from './shared.js';
import { Release, releaseOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  tag: TAG,
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Release name (GitHub default: the tag)' })),
  notes: Type.Optional(Type.String({ maxLength: 125000, description: 'Release notes (Markdown)' })),
  notes_file: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'Read the notes from this UTF-8 file' })),
  target: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Branch or commit the tag is created from when it does not exist (GitHub default: the default branch)',
    }),
  ),
  draft: Type.Boolean({ default: false, description: 'Create a draft' }),
  prerelease: Type.Boolean({ default: false, description: 'Mark as a prerelease' }),
});
const output = RootObject({ command: Type.Literal('github.release.create'), repository: Type.String(), release: Release });
type Output = Static<typeof output>;

export const releaseCreate = defineCommand({
  id: 'github.release.create',
  title: 'Create a GitHub release',
  description:
    'Create a release for a tag (GitHub creates the tag from target when it does not exist). Unset options are left to GitHub. ' +
    'Nothing local changes: no version bump, commit, tag or push.',
  inputSchema: input,
  outputSchema: output,
  effects: writeEffects('Publishes a release (and may create its tag) in the repository on GitHub.'),
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['tag'] },
  examples: [
    { description: 'Release v1.2.0 with notes', arguments: { tag: 'v1.2.0', title: '1.2.0', notes: 'Fixes the crash on start.' } },
  ],
  render: (o: Output) => `created release ${o.release.tag_name}${o.release.draft ? ' (draft)' : ''} ${o.release.html_url ?? ''}`.trimEnd(),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const notes = await textInput(ctx, args.notes, args.notes_file, ['notes', 'notes_file']);
    const gh = await githubClient(args, ctx, 'github.release.create');
    const payload: Record<string, unknown> = { tag_name: args.tag, draft: args.draft, prerelease: args.prerelease };
    if (args.title !== undefined) payload.name = args.title;
    if (notes !== undefined) payload.body = notes;
    if (args.target !== undefined) payload.target_commitish = args.target;
    const { data } = await gh.request<Record<string, any>>('POST /repos/{owner}/{repo}/releases', payload);
    return { command: 'github.release.create', repository: `${gh.target.owner}/${gh.target.name}`, release: releaseOf(data) };
  },
});
