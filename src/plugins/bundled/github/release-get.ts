import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON, githubClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Release, releaseOf } from './shapes.js';

export const TAG = Type.String({ minLength: 1, maxLength: 255, description: 'Release tag, e.g. v1.2.0' });
const input = RootObject({ ...COMMON, tag: TAG });
const output = RootObject({ command: Type.Literal('github.release.get'), repository: Type.String(), release: Release });
type Output = Static<typeof output>;

export const releaseGet = defineCommand({
  id: 'github.release.get',
  title: 'Show a GitHub release',
  description: 'The release of a tag: name, notes, draft/prerelease flags and assets.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['tag'] },
  examples: [{ description: 'Release v1.0.0', arguments: { tag: 'v1.0.0' } }],
  render: (o: Output) => `${o.release.tag_name} ${o.release.name ?? ''}\n\n${o.release.body ?? ''}`.trimEnd(),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gh = await githubClient(args, ctx, 'github.release.get');
    const { data } = await gh.request<Record<string, any>>('GET /repos/{owner}/{repo}/releases/tags/{tag}', { tag: args.tag });
    return { command: 'github.release.get', repository: `${gh.target.owner}/${gh.target.name}`, release: releaseOf(data) };
  },
});
