import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON, gitlabClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Release, releaseOf } from './shapes.js';

const input = RootObject({ ...COMMON });
const output = RootObject({
  command: Type.Literal('gitlab.releases'),
  project: Type.String(),
  releases: Type.Array(Release),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const releases = defineCommand({
  id: 'gitlab.releases',
  title: 'List GitLab releases',
  description: 'Releases of the project newest first. The limit (default 100) caps them and sets truncated.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  examples: [{ description: 'Releases of the current project', arguments: {} }],
  render: (o: Output) => o.releases.map((r) => `${r.tag_name}\t${r.released_at ?? '-'}\t${r.name ?? ''}`).join('\n') || 'no releases',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gl = await gitlabClient(args, ctx, 'gitlab.releases');
    const { items, truncated } = await gl.list<Record<string, any>>(gl.projectPath('/releases'), {}, ctx.limit ?? 100);
    return { command: 'gitlab.releases', project: gl.target.project, releases: items.map(releaseOf), truncated };
  },
});
