/**
 * Which token a forge call sends, and where it may go. Order: the vault slot, the CLI-only
 * `--token`, the environment variables, then git's credential helpers. Explicit tokens (slot,
 * --token) go wherever the caller points; ambient ones (environment, helper) only to the default
 * API host, the detected remote's host, or loopback. No token ever travels over cleartext HTTP
 * to a non-loopback host.
 */
import type { CommandContext } from '../../../catalog/descriptor.js';
import { AhError } from '../../../errors.js';
import { gitCredentialFill } from './credential-fill.js';

export type TokenSource = 'credentials' | 'cli' | 'environment' | 'git-credential' | 'none';

export interface TokenPolicy {
  domain: 'github' | 'gitlab';
  /** Env variables read in order, e.g. GITHUB_TOKEN then GH_TOKEN. */
  envNames: readonly string[];
  /** Hosts ambient credentials may go to besides loopback. */
  trustedHosts: readonly string[];
  /** Host that git's credential helpers are asked about. */
  credentialHost: string;
  insecureCode: string;
}

export interface ResolvedToken {
  token: string | null;
  source: TokenSource;
  /** The environment variable it came from (never the value). */
  variable?: string;
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Refuses a token bound for a cleartext non-loopback URL. */
export function checkTokenTarget(url: URL, policy: TokenPolicy): void {
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new AhError({
      code: policy.insecureCode,
      message: `refusing to send a ${policy.domain} token over cleartext HTTP to ${url.host}`,
      cause: `${url.origin} is neither https nor a loopback address`,
      hint: 'Use an https:// API URL (or a loopback one for a local test server).',
      domain: policy.domain,
      operation: `${policy.domain}.auth`,
    });
  }
}

export async function resolveToken(
  ctx: CommandContext,
  options: { slot: string | undefined; cli: string | undefined; useGitCredential: boolean; apiUrl: URL },
  policy: TokenPolicy,
): Promise<ResolvedToken> {
  let resolved: ResolvedToken | null = null;
  if (options.slot) resolved = { token: options.slot, source: 'credentials' };
  else if (options.cli) resolved = { token: options.cli, source: 'cli' };
  if (!resolved) {
    const host = options.apiUrl.hostname.toLowerCase();
    const ambientAllowed = isLoopbackHost(host) || policy.trustedHosts.map((h) => h.toLowerCase()).includes(host);
    if (!ambientAllowed) return { token: null, source: 'none' };
    for (const name of policy.envNames) {
      const value = ctx.env[name]?.trim();
      if (value) {
        resolved = { token: value, source: 'environment', variable: name };
        break;
      }
    }
    if (!resolved && options.useGitCredential && options.apiUrl.protocol === 'https:') {
      const value = await gitCredentialFill(policy.credentialHost, ctx.env, ctx.signal);
      if (value) resolved = { token: value, source: 'git-credential' };
    }
  }
  if (!resolved) return { token: null, source: 'none' };
  checkTokenTarget(options.apiUrl, policy);
  return resolved;
}
