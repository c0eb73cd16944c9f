import { defineCommand } from '../../../catalog/descriptor.js';
import { Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON, githubClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';

const input = RootObject({ ...COMMON });
const output = RootObject({
  command: Type.Literal('github.repo'),
  repository: Type.String(),
  owner: Type.String(),
  name: Type.String(),
  api_url: Type.String(),
  remote_url: Nullable(Type.String()),
  html_url: Nullable(Type.String()),
  default_branch: Nullable(Type.String()),
  private: Nullable(Type.Boolean()),
});
type Output = Static<typeof output>;

export const repo = defineCommand({
  id: 'github.repo',
  title: 'Show the GitHub repository',
  description:
    'The repository this call targets (from repo, else the git remote) and what the API says about it: default branch, visibility, URL.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  examples: [
    { description: 'The repository of the current clone', arguments: {} },
    { description: 'A named repository', arguments: { repo: 'octocat/hello-world' } },
  ],
  render: (o: Output) => `${o.repository}${o.private ? ' (private)' : ''}\ndefault branch: ${o.default_branch ?? '-'}\n${o.html_url ?? ''}`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gh = await githubClient(args, ctx, 'github.repo');
    const { data } = await gh.request<Record<string, any>>('GET /repos/{owner}/{repo}');
    const t = gh.target;
    return {
      command: 'github.repo',
      repository: `${t.owner}/${t.name}`,
      owner: t.owner,
      name: t.name,
      api_url: t.apiUrl.href.replace(/\/+$/, ''),
      remote_url: t.remoteUrl,
      html_url: typeof data.html_url === 'string' ? data.html_url : null,
      default_branch: typeof data.default_branch === 'string' ? data.default_branch : null,
      private: typeof data.private === 'boolean' ? data.private : null,
    };
  },
});
