/**
 * What every github command shares: the common inputs, the repository and API target, the token
 * (forge/token.ts) and one Octokit client whose fetch never carries the token off the API origin.
 * Octokit is imported on the first call only: tools/list, --help and start-up never load it.
 */
import type { CommandContext, CredentialSlot } from '../../../catalog/descriptor.js';
import { type Static, Type } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';
import { type ApiFailure, apiError, transportError } from '../forge/api-error.js';
import { readEffects, statelessWhenNamed, textInput as sharedTextInput, TOKEN_INPUTS } from '../forge/common.js';
import { detectRemote } from '../forge/remote.js';
import { type ResolvedToken, resolveToken, type TokenPolicy } from '../forge/token.js';

export const DEFAULT_API = 'https://api.github.com';

/** The common inputs, spread into every command's schema. */
export const COMMON = {
  repo: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$', maxLength: 200, description: 'OWNER/REPO; default: from the git remote' }),
  ),
  remote: Type.String({ default: 'origin', minLength: 1, maxLength: 200, description: 'Git remote used to detect the repository' }),
  api_url: Type.String({
    default: DEFAULT_API,
    maxLength: 2000,
    description: 'REST API base URL (GitHub Enterprise: https://HOST/api/v3)',
  }),
  ...TOKEN_INPUTS,
};
export type Common = Static<ReturnType<typeof Type.Object<typeof COMMON>>>;

export const TOKEN_SLOT: readonly CredentialSlot[] = [
  { name: 'token', acceptedKinds: ['github-token'], required: false, description: 'A GitHub token.' },
];

/** Over HTTP MCP a call needs no cwd when it names the repository and reads no relative file. */
export const stateless = statelessWhenNamed('repo', ['body_file', 'comment_file', 'notes_file']);

export const READ_EFFECTS = readEffects('GitHub');

export { writeEffects } from '../forge/common.js';

export interface GithubTarget {
  owner: string;
  name: string;
  apiUrl: URL;
  remoteUrl: string | null;
  token: ResolvedToken;
}

type Octokit = InstanceType<typeof import('@octokit/core')['Octokit']> & {
  paginate: import('@octokit/plugin-paginate-rest').PaginateInterface;
};

export interface GithubClient {
  target: GithubTarget;
  /** One API request; failures become GITHUB_* diagnostics. */
  request<T = unknown>(
    route: string,
    params?: Record<string, unknown>,
  ): Promise<{ data: T; headers: Record<string, string | number | undefined> }>;
  /** Pages through a list endpoint until `limit` items (null: all); `truncated` says more existed. */
  list<T = unknown>(
    route: string,
    params: Record<string, unknown>,
    limit: number | null,
    keep?: (item: T) => boolean,
  ): Promise<{ items: T[]; truncated: boolean }>;
  /** The raw fetch with the same token rules (for archives and redirects). */
  fetch(url: string, init?: RequestInit): Promise<Response>;
}

function invalid(message: string, hint?: string): AhError {
  return new AhError({ code: 'INVALID_ARGUMENT', message, hint, domain: 'github', operation: 'github.input' });
}

async function target(args: Common, ctx: CommandContext): Promise<GithubTarget> {
  let apiUrl: URL;
  try {
    apiUrl = new URL(args.api_url.replace(/\/+$/, ''));
  } catch {
    throw invalid(`api_url is not a URL: ${args.api_url}`);
  }
  if (apiUrl.protocol !== 'https:' && apiUrl.protocol !== 'http:') throw invalid('api_url must be http(s)');
  if (apiUrl.username || apiUrl.password) throw invalid('api_url must not carry credentials', 'Use credentials.token or --token.');
  let owner: string;
  let name: string;
  let remoteUrl: string | null = null;
  const trusted = [new URL(DEFAULT_API).hostname];
  if (args.repo) {
    [owner, name] = args.repo.split('/') as [string, string];
  } else {
    const remote = await detectRemote(ctx, args.remote, 'github');
    const parts = remote.path.split('/');
    if (parts.length !== 2)
      throw invalid(`remote '${args.remote}' is not an OWNER/REPO repository: ${remote.path}`, 'Pass --repo OWNER/REPO.');
    [owner, name] = parts as [string, string];
    remoteUrl = remote.url;
    trusted.push(remote.host);
  }
  const policy: TokenPolicy = {
    domain: 'github',
    envNames: ['GITHUB_TOKEN', 'GH_TOKEN'],
    trustedHosts: trusted,
    // git stores github.com credentials under the web host, not api.github.com.
    credentialHost: apiUrl.hostname === 'api.github.com' ? 'github.com' : apiUrl.host,
    insecureCode: 'GITHUB_INSECURE_TOKEN_TARGET',
  };
  const slot = ctx.credentials.token?.values.token;
  const token = await resolveToken(ctx, { slot, cli: args.token, useGitCredential: args.use_git_credential, apiUrl }, policy);
  return { owner, name, apiUrl, remoteUrl, token };
}

function failureOf(error: unknown): ApiFailure | null {
  const e = error as { status?: unknown; response?: { headers?: Record<string, string>; data?: { message?: unknown } } };
  if (typeof e?.status !== 'number' || e.status < 400) return null;
  const message = e.response?.data?.message;
  return { status: e.status, headers: e.response?.headers ?? {}, ...(typeof message === 'string' ? { message } : {}) };
}

export async function githubClient(args: Common, ctx: CommandContext, operation: string): Promise<GithubClient> {
  const t = await target(args, ctx);
  const origin = t.apiUrl.origin;
  let timedOut = false;
  // The token goes only to the API origin: a Link header or redirect pointing elsewhere gets none.
  const boundFetch = (url: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const href = typeof url === 'string' ? url : url instanceof URL ? url.href : url.url;
    const headers = new Headers(init.headers);
    if (new URL(href).origin !== origin) headers.delete('authorization');
    else if (t.token.token) headers.set('authorization', `Bearer ${t.token.token}`);
    const timeout = AbortSignal.timeout(args.timeout_secs * 1000);
    timeout.addEventListener('abort', () => {
      timedOut = true;
    });
    return fetch(href, { ...init, headers, redirect: 'follow', signal: AbortSignal.any([ctx.signal, timeout]) });
  };
  const { Octokit } = await import('@octokit/core');
  const { paginateRest } = await import('@octokit/plugin-paginate-rest');
  const octokit = new (Octokit.plugin(paginateRest))({
    baseUrl: t.apiUrl.href.replace(/\/+$/, ''),
    userAgent: 'aihelper',
    request: { fetch: boundFetch },
  }) as unknown as Octokit;
  const fail = (error: unknown): never => {
    if (error instanceof AhError) throw error;
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const f = failureOf(error);
    if (f) throw apiError('github', operation, f, 'github-token');
    throw transportError('github', operation, error, timedOut);
  };
  const repoParams = { owner: t.owner, repo: t.name };
  return {
    target: t,
    async request(route, params = {}) {
      try {
        const r = await octokit.request(route, { ...repoParams, ...params });
        return { data: r.data as never, headers: r.headers as Record<string, string | number | undefined> };
      } catch (error) {
        return fail(error);
      }
    },
    async list(route, params, limit, keep) {
      const items: unknown[] = [];
      try {
        const perPage = limit === null ? 100 : Math.min(100, Math.max(1, limit + 1));
        for await (const page of octokit.paginate.iterator(route, { ...repoParams, per_page: perPage, ...params })) {
          for (const item of page.data as unknown[]) {
            if (keep && !keep(item as never)) continue;
            if (limit !== null && items.length >= limit) return { items: items as never[], truncated: true };
            items.push(item);
          }
        }
      } catch (error) {
        return fail(error);
      }
      return { items: items as never[], truncated: false };
    },
    fetch: (url, init) => boundFetch(url, init).catch(fail),
  };
}

/** A UTF-8 text input given inline or as a file (relative to the call's cwd), never both. */
export function textInput(
  ctx: CommandContext,
  inline: string | undefined,
  file: string | undefined,
  names: [string, string],
): Promise<string | undefined> {
  return sharedTextInput(ctx, inline, file, names, 'github');
}
