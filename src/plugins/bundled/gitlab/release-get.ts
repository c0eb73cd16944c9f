import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON, gitlabClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Release, releaseOf } from './shapes.js';

export const TAG = Type.String({ minLength: 1, maxLength: 255, description: 'Release tag, e.g. v1.2.0' });
const input = RootObject({ ...COMMON, tag: TAG });
const output = RootObject({ command: Type.Literal('gitlab.release.get'), project: Type.String(), release: Release });
type Output = Static<typeof output>;

export const releaseGet = defineCommand({
  id: 'gitlab.release.get',
  title: 'Show a GitLab release',
  description: 'The release of a tag: name, description (notes), dates and asset links.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['tag'] },
  examples: [{ description: 'Release v1.0.0', arguments: { tag: 'v1.0.0' } }],
  render: (o: Output) => `${o.release.tag_name} ${o.release.name ?? ''}\n\n${o.release.description ?? ''}`.trimEnd(),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gl = await gitlabClient(args, ctx, 'gitlab.release.get');
    const data = await gl.request<Record<string, any>>('GET', gl.projectPath(`/releases/${encodeURIComponent(args.tag)}`));
    return { command: 'gitlab.release.get', project: gl.target.project, release: releaseOf(data) };
  },
});
