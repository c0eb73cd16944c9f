import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { gitOrNull, READ_EFFECTS } from './run-git.js';
import { NOT_A_REPO_TEXT } from './shared.js';

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

/**
 * Hosting provider hinted by a remote URL: the word github, gitlab or bitbucket as a dot-separated
 * part of the host name (github.com, gitlab.example.org, an SSH alias such as github.com-work).
 */
export function providerOf(url: string | null): 'github' | 'gitlab' | 'bitbucket' | null {
  const host = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/]+@)?(\[[^\]]*\]|[^/:]+)/i.exec(url ?? '')?.[1]?.toLowerCase() ?? '';
  const labels = host.split('.');
  for (const provider of ['github', 'gitlab', 'bitbucket'] as const) {
    if (labels.includes(provider)) return provider;
  }
  return null;
}

/** Hides credentials embedded in remote URLs (https://user:token@host). */
function withoutUserinfo(url: string): string {
  // Over http(s) any user part may be a token; elsewhere (ssh://git@host) the user name is part of
  // the address, so only a password is dropped.
  if (/^https?:\/\//i.test(url)) return url.replace(/^(https?:\/\/)[^@/]+@/i, '$1');
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]+):[^@/]*@/i, '$1@');
}

export const remotes = defineCommand({
  id: 'git.remotes',
  title: 'List remotes',
  description:
    'List remotes with fetch and push URLs (user names and passwords embedded in http(s) URLs are removed) and a ' +
    'provider hint from the host name: github, gitlab or bitbucket when that word is a dot-separated part of the host, else null.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [{ description: 'Where this repository pushes', arguments: {} }],
  render: (o: Output) =>
    o.in_git_repo
      ? o.remotes.map((r) => `${r.name}\t${r.fetch_url ?? '-'} (fetch)\t${r.push_url ?? '-'} (push)`).join('\n') || 'no remotes'
      : NOT_A_REPO_TEXT,
  async run(_args: Static<typeof input>, ctx): Promise<Output> {
    const out = await gitOrNull(ctx, ['remote', '-v']);
    if (out === null) return { command: 'git.remotes', in_git_repo: false, remote_count: 0, remotes: [] };
    const byName = new Map<string, Static<typeof REMOTE>>();
    for (const line of out.stdout.toString('utf8').split('\n')) {
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
