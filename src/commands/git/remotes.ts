import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { gitOrNull, READ_EFFECTS } from './run-git.js';

const input = RootObject({});
const REMOTE = Closed({
  name: Type.String(),
  fetch_url: Nullable(Type.String()),
  push_url: Nullable(Type.String()),
  provider: Nullable(Type.Union([Type.Literal('github'), Type.Literal('gitlab'), Type.Literal('bitbucket')])),
});
const output = RootObject({
  command: Type.Literal('git.remotes'),
  in_git_repo: Type.Boolean(),
  remote_count: Type.Integer({ minimum: 0 }),
  remotes: Type.Array(REMOTE),
});
type Output = Static<typeof output>;

/** Hosting provider guessed from a remote URL's host name. */
export function providerOf(url: string | null): 'github' | 'gitlab' | 'bitbucket' | null {
  const host = /^(?:[a-z+]+:\/\/)?(?:[^@/]+@)?([^/:]+)/i.exec(url ?? '')?.[1]?.toLowerCase() ?? '';
  if (host.includes('github')) return 'github';
  if (host.includes('gitlab')) return 'gitlab';
  if (host.includes('bitbucket')) return 'bitbucket';
  return null;
}

/** Hides credentials embedded in remote URLs (https://user:token@host). */
function withoutUserinfo(url: string): string {
  return url.replace(/^([a-z+]+:\/\/)[^@/]+@/i, '$1');
}

export const remotes = defineCommand({
  id: 'git.remotes',
  title: 'List remotes',
  description:
    'List remotes with fetch and push URLs (credentials in URLs are removed) and a provider hint: github, gitlab, bitbucket or null.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [{ description: 'Where this repository pushes', arguments: {} }],
  render: (o: Output) =>
    o.in_git_repo
      ? o.remotes.map((r) => `${r.name}\t${r.fetch_url ?? '-'} (fetch)\t${r.push_url ?? '-'} (push)`).join('\n') || 'no remotes'
      : 'not a git repository',
  async run(_args: Static<typeof input>, ctx): Promise<Output> {
    const bytes = await gitOrNull(ctx, ['remote', '-v']);
    if (bytes === null) return { command: 'git.remotes', in_git_repo: false, remote_count: 0, remotes: [] };
    const byName = new Map<string, Static<typeof REMOTE>>();
    for (const line of bytes.toString('utf8').split('\n')) {
      const match = /^(\S+)\t(.+) \((fetch|push)\)$/.exec(line);
      if (!match) continue;
      const [, name, url, kind] = match as unknown as [string, string, string, string];
      const remote = byName.get(name) ?? { name, fetch_url: null, push_url: null, provider: null };
      if (kind === 'fetch') remote.fetch_url = withoutUserinfo(url);
      else remote.push_url = withoutUserinfo(url);
      remote.provider = providerOf(remote.fetch_url ?? remote.push_url);
      byName.set(name, remote);
    }
    const list = [...byName.values()];
    return { command: 'git.remotes', in_git_repo: true, remote_count: list.length, remotes: list };
  },
});
