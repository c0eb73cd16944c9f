import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { TAG } from './release-get.js';
import { COMMON, githubClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Asset, assetOf } from './shapes.js';

const input = RootObject({ ...COMMON, tag: TAG });
const output = RootObject({
  command: Type.Literal('github.release.assets'),
  repository: Type.String(),
  tag: Type.String(),
  assets: Type.Array(Asset),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const releaseAssets = defineCommand({
  id: 'github.release.assets',
  title: 'List assets of a GitHub release',
  description: 'The files attached to the release of a tag, with sizes and download URLs. The limit caps them and sets truncated.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['tag'] },
  examples: [{ description: 'Assets of v1.0.0', arguments: { tag: 'v1.0.0' } }],
  render: (o: Output) => o.assets.map((a) => `${a.name}\t${a.size}\t${a.browser_download_url ?? ''}`).join('\n') || 'no assets',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gh = await githubClient(args, ctx, 'github.release.assets');
    const { data } = await gh.request<Record<string, any>>('GET /repos/{owner}/{repo}/releases/tags/{tag}', { tag: args.tag });
    const { items, truncated } = await gh.list<Record<string, any>>(
      'GET /repos/{owner}/{repo}/releases/{release_id}/assets',
      { release_id: data.id },
      ctx.limit ?? 100,
    );
    return {
      command: 'github.release.assets',
      repository: `${gh.target.owner}/${gh.target.name}`,
      tag: args.tag,
      assets: items.map(assetOf),
      truncated,
    };
  },
});
