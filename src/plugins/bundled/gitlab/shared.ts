/**
 * What every gitlab command shares: the common inputs, the project and host (explicit, else the
 * git remote's host for self-managed instances), the token (forge/token.ts, re-checked for every
 * request so a foreign graphql_url never receives it) and a small fetch client with pagination.
 * Plain fetch rather than @gitbeaker/rest: that client bundles to 256 KB and takes 40–100 ms to
 * load here, against a few dozen lines for the handful of endpoints used (docs/architecture.md).
 */
import type { CommandContext, CredentialSlot } from '../../../catalog/descriptor.js';
import { type Static, Type } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';
import { readEffects, statelessWhenNamed, textInput as sharedTextInput, TOKEN_INPUTS } from '../forge/common.js';
import { apiError, transportError } from '../forge/api-error.js';
import { detectRemote } from '../forge/remote.js';
import { checkTokenTarget, type ResolvedToken, resolveToken, type TokenPolicy } from '../forge/token.js';

export const DEFAULT_HOST = 'https://gitlab.com';

export const COMMON = {
  project: Type.Optional(
    Type.String({
      pattern: '^([0-9]+|[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)+)$',
      maxLength: 500,
      description: 'group/sub/name or numeric id; default: from the git remote',
    }),
  ),
  remote: Type.String({ default: 'origin', minLength: 1, maxLength: 200, description: 'Git remote used to detect the project' }),
  host: Type.Optional(
    Type.String({ maxLength: 2000, description: 'GitLab URL (default https://gitlab.com, or the remote host of a self-managed clone)' }),
  ),
  api_url: Type.Optional(Type.String({ maxLength: 2000, description: 'REST API base (default <host>/api/v4)' })),
  graphql_url: Type.Optional(Type.String({ maxLength: 2000, description: 'GraphQL endpoint (default derived from api_url)' })),
  ...TOKEN_INPUTS,
};
export type Common = Static<ReturnType<typeof Type.Object<typeof COMMON>>>;

export const TOKEN_SLOT: readonly CredentialSlot[] = [
  { name: 'token', acceptedKinds: ['gitlab-token'], required: false, description: 'A GitLab token.' },
];

/** Over HTTP MCP a call needs no cwd when it names the project and reads no relative file. */
export const stateless = statelessWhenNamed('project', ['description_file', 'comment_file', 'body_file']);

export const READ_EFFECTS = readEffects('GitLab');

export { writeEffects } from '../forge/common.js';

function invalid(message: string, hint?: string, code = 'INVALID_ARGUMENT'): AhError {
  return new AhError({ code, message, hint, domain: 'gitlab', operation: 'gitlab.input' });
}

function parseUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw.replace(/\/+$/, ''));
  } catch {
    throw invalid(`${what} is not a URL: ${raw}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(`${what} must be http(s)`);
  if (url.username || url.password) throw invalid(`${what} must not carry credentials`, 'Use credentials.token or --token.');
  return url;
}

export interface GitlabTarget {
  /** Path or numeric id as given or detected. */
  project: string;
  apiUrl: URL;
  graphqlUrl: URL;
  token: ResolvedToken;
}

export interface GitlabClient {
  target: GitlabTarget;
  /** `/projects/<id>` + path. */
  projectPath(path?: string): string;
  request<T = unknown>(method: string, path: string, options?: { query?: Record<string, unknown>; body?: unknown }): Promise<T>;
  list<T = unknown>(path: string, query: Record<string, unknown>, limit: number): Promise<{ items: T[]; truncated: boolean }>;
  /** A raw GET under the API (for traces). */
  fetchRaw(path: string): Promise<Response>;
  graphql<T = unknown>(query: string, variables: Record<string, unknown>): Promise<T>;
}

async function target(args: Common, ctx: CommandContext): Promise<GitlabTarget> {
  let project = args.project;
  let hostRaw = args.host;
  const trusted = [new URL(DEFAULT_HOST).hostname];
  if (project === undefined) {
    let remote: Awaited<ReturnType<typeof detectRemote>>;
    try {
      remote = await detectRemote(ctx, args.remote, 'gitlab');
    } catch (error) {
      const e = error as AhError;
      throw invalid(e.message, 'Pass --project group/name (or a numeric id), or run inside a clone.', 'GITLAB_PROJECT_UNDETECTED');
    }
    project = remote.path;
    trusted.push(remote.host);
    // A self-managed clone talks to its own host unless --host says otherwise.
    if (hostRaw === undefined && remote.host !== 'gitlab.com') hostRaw = `https://${remote.host}`;
  }
  const host = parseUrl(hostRaw ?? DEFAULT_HOST, 'host');
  const apiUrl = parseUrl(args.api_url ?? `${host.href.replace(/\/+$/, '')}/api/v4`, 'api_url');
  const graphqlUrl = parseUrl(
    args.graphql_url ??
      (apiUrl.pathname.endsWith('/api/v4') ? apiUrl.href.replace(/\/api\/v4$/, '/api/graphql') : `${host.origin}/api/graphql`),
    'graphql_url',
  );
  const policy: TokenPolicy = {
    domain: 'gitlab',
    envNames: ['GITLAB_TOKEN', 'GL_TOKEN'],
    // Ambient tokens go to gitlab.com and the detected remote's host only (and loopback).
    trustedHosts: trusted,
    credentialHost: apiUrl.host,
    insecureCode: 'GITLAB_INSECURE_TOKEN_TARGET',
  };
  const slot = ctx.credentials.token?.values.token;
  // git's helpers are asked only when both endpoints live on one https host.
  const sameHost = apiUrl.protocol === 'https:' && graphqlUrl.origin === apiUrl.origin;
  const token = await resolveToken(ctx, { slot, cli: args.token, useGitCredential: args.use_git_credential && sameHost, apiUrl }, policy);
  return { project, apiUrl, graphqlUrl, token };
}

export async function gitlabClient(args: Common, ctx: CommandContext, operation: string): Promise<GitlabClient> {
  const t = await target(args, ctx);
  const policy = { domain: 'gitlab', insecureCode: 'GITLAB_INSECURE_TOKEN_TARGET' } as TokenPolicy;
  const send = async (url: URL, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    // The token is re-checked per request: it goes only to the API origin, never in cleartext.
    if (t.token.token && url.origin === t.apiUrl.origin) {
      checkTokenTarget(url, policy);
      headers.set('authorization', `Bearer ${t.token.token}`);
    }
    let timedOut = false;
    const timeout = AbortSignal.timeout(args.timeout_secs * 1000);
    timeout.addEventListener('abort', () => {
      timedOut = true;
    });
    try {
      return await fetch(url, { ...init, headers, redirect: 'manual', signal: AbortSignal.any([ctx.signal, timeout]) });
    } catch (error) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      throw transportError('gitlab', operation, error, timedOut);
    }
  };
  const apiBase = t.apiUrl.href.replace(/\/+$/, '');
  const url = (path: string, query: Record<string, unknown> = {}): URL => {
    const u = new URL(`${apiBase}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
    return u;
  };
  const check = async (response: Response): Promise<Response> => {
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    let message: string | undefined;
    try {
      const body = JSON.parse(text) as { message?: unknown; error?: unknown };
      const m = body.message ?? body.error;
      message = typeof m === 'string' ? m : m === undefined ? undefined : JSON.stringify(m);
    } catch {
      message = undefined;
    }
    throw apiError(
      'gitlab',
      operation,
      { status: response.status, headers: Object.fromEntries(response.headers), ...(message ? { message } : {}) },
      'gitlab-token',
    );
  };
  const json = async <T>(response: Response): Promise<T> => {
    try {
      return (await response.json()) as T;
    } catch (error) {
      throw new AhError({
        code: 'GITLAB_RESPONSE_INVALID',
        message: 'GitLab answered with a body that is not JSON',
        cause: (error as Error).message,
        domain: 'gitlab',
        operation,
      });
    }
  };
  const projectId = encodeURIComponent(t.project);
  return {
    target: t,
    projectPath: (path = '') => `/projects/${projectId}${path}`,
    async request(method, path, options = {}) {
      const init: RequestInit = { method, headers: { accept: 'application/json' } };
      if (options.body !== undefined) {
        init.body = JSON.stringify(options.body);
        init.headers = { accept: 'application/json', 'content-type': 'application/json' };
      }
      return json(await check(await send(url(path, options.query), init)));
    },
    async list(path, query, limit) {
      const items: unknown[] = [];
      let next: URL | null = url(path, { per_page: Math.min(100, limit + 1), ...query });
      for (let page = 0; next && page < 1000; page += 1) {
        const response = await check(await send(next, { headers: { accept: 'application/json' } }));
        const nextPage = response.headers.get('x-next-page');
        const link = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
        for (const item of await json<unknown[]>(response)) {
          if (items.length >= limit) return { items: items as never[], truncated: true };
          items.push(item);
        }
        if (link) next = new URL(link);
        else if (nextPage) {
          next = new URL(next);
          next.searchParams.set('page', nextPage);
        } else next = null;
      }
      return { items: items as never[], truncated: false };
    },
    fetchRaw: async (path) => check(await send(url(path))),
    async graphql(query, variables) {
      const body = await json<{ data?: unknown; errors?: { message?: string }[] }>(
        await check(
          await send(t.graphqlUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({ query, variables }),
          }),
        ),
      );
      if (body.errors?.length) {
        throw new AhError({
          code: 'GITLAB_API_FAILED',
          message: `GitLab GraphQL error: ${body.errors[0]?.message ?? 'unknown'}`,
          domain: 'gitlab',
          operation,
        });
      }
      return body.data as never;
    },
  };
}

/** A UTF-8 text input given inline or as a file (relative to the call's cwd), never both. */
export function textInput(
  ctx: CommandContext,
  inline: string | undefined,
  file: string | undefined,
  names: [string, string],
): Promise<string | undefined> {
  return sharedTextInput(ctx, inline, file, names, 'gitlab');
}
