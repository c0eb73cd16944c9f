import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { TAG } from './release-get.js';
import { COMMON, gitlabClient, stateless, textInput, TOKEN_SLOT, writeEffects } from './shared.js';
import { Release, releaseOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  tag: TAG,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Release name (GitLab default: the tag)' })),
  description: Type.Optional(Type.String({ maxLength: 1000000, description: 'Release notes (Markdown)' })),
  description_file: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'Read the notes from this UTF-8 file' })),
  ref: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'Branch or commit the tag is created from when it does not exist' }),
  ),
});
const output = RootObject({ command: Type.Literal('gitlab.release.create'), project: Type.String(), release: Release });
type Output = Static<typeof output>;

export const releaseCreate = defineCommand({
  id: 'gitlab.release.create',
  title: 'Create a GitLab release',
  description:
    'Create a release for a tag (GitLab creates the tag from ref when it does not exist). Nothing local changes: no bump, commit, tag or push.',
  inputSchema: input,
  outputSchema: output,
  effects: writeEffects('Publishes a release (and may create its tag) in the project on GitLab.'),
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['tag'] },
  examples: [{ description: 'Release v1.2.0', arguments: { tag: 'v1.2.0', name: '1.2.0', description: 'Fixes the crash.' } }],
  render: (o: Output) => `created release ${o.release.tag_name}`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const notes = await textInput(ctx, args.description, args.description_file, ['description', 'description_file']);
    const gl = await gitlabClient(args, ctx, 'gitlab.release.create');
    const body: Record<string, unknown> = { tag_name: args.tag };
    if (args.name !== undefined) body.name = args.name;
    if (notes !== undefined) body.description = notes;
    if (args.ref !== undefined) body.ref = args.ref;
    const data = await gl.request<Record<string, any>>('POST', gl.projectPath('/releases'), { body });
    return { command: 'gitlab.release.create', project: gl.target.project, release: releaseOf(data) };
  },
});
