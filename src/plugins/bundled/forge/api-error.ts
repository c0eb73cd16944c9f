/**
 * Forge API failures as diagnostics an agent can act on: a missing or weak token says to ask the
 * user for a token secret (never a retry loop), a rate limit says when to retry.
 */
import { AhError } from '../../../errors.js';

export interface ApiFailure {
  status: number;
  headers: Readonly<Record<string, string | number | undefined>>;
  /** The API's own message, when the body had one. */
  message?: string;
}

const header = (f: ApiFailure, name: string): string | undefined => {
  const value = f.headers[name] ?? f.headers[name.toLowerCase()];
  return value === undefined ? undefined : String(value);
};

/** Seconds until the limit resets, from Retry-After or the reset epoch headers. */
function retryAfterSeconds(f: ApiFailure, now: number): number | null {
  const retryAfter = header(f, 'retry-after');
  if (retryAfter && /^\d+$/.test(retryAfter)) return Number(retryAfter);
  const reset = header(f, 'x-ratelimit-reset') ?? header(f, 'ratelimit-reset');
  if (reset && /^\d+$/.test(reset)) {
    const value = Number(reset);
    // GitHub sends an epoch; GitLab's RateLimit-Reset is an epoch too, but small values are deltas.
    return value > 1e9 ? Math.max(0, Math.ceil(value - now / 1000)) : value;
  }
  return null;
}

function isRateLimit(f: ApiFailure): boolean {
  if (f.status === 429) return true;
  if (f.status !== 403) return false;
  return header(f, 'x-ratelimit-remaining') === '0' || header(f, 'retry-after') !== undefined || /rate limit/i.test(f.message ?? '');
}

export function apiError(domain: 'github' | 'gitlab', operation: string, f: ApiFailure, secretKind: string, now = Date.now()): AhError {
  const prefix = domain.toUpperCase();
  const apiWords = f.message ? `: ${f.message.slice(0, 300)}` : '';
  if (isRateLimit(f)) {
    const seconds = retryAfterSeconds(f, now);
    const when = seconds === null ? 'later' : `in ${seconds} s (at ${new Date(now + seconds * 1000).toISOString()})`;
    return new AhError({
      code: `${prefix}_RATE_LIMITED`,
      message: `${domain} rate limit reached; retry ${when}`,
      cause: `HTTP ${f.status}${apiWords}`,
      hint: seconds === null ? 'Wait before retrying; an authenticated token has a higher limit.' : `Retry after ${seconds} s.`,
      retryable: true,
      domain,
      operation,
    });
  }
  if (f.status === 401 || f.status === 403) {
    return new AhError({
      code: f.status === 401 ? `${prefix}_AUTH_REQUIRED` : `${prefix}_FORBIDDEN`,
      // The remedy is in the message itself: it is what every surface shows an agent.
      message:
        f.status === 401
          ? `${domain} refused the request without valid credentials: ask the user for a ${secretKind} secret, do not retry`
          : `${domain} refused the request: the token lacks the permission it needs; ask the user for a ${secretKind} secret with that scope`,
      cause: `HTTP ${f.status}${apiWords}`,
      hint: `Do not retry. Ask the user to add a ${secretKind} secret with the needed scope (ah secrets add NAME --kind ${secretKind}), then pass its id under credentials.token.`,
      retryable: false,
      domain,
      operation,
    });
  }
  if (f.status === 404) {
    return new AhError({
      code: `${prefix}_NOT_FOUND`,
      message: `${domain} has no such resource (or the token cannot see it)`,
      cause: `HTTP 404${apiWords}`,
      hint: 'Check the repository and the number or id; private resources need a token.',
      domain,
      operation,
    });
  }
  return new AhError({
    code: `${prefix}_API_FAILED`,
    message: `${domain} answered HTTP ${f.status}`,
    cause: `HTTP ${f.status}${apiWords}`,
    retryable: f.status >= 500,
    domain,
    operation,
  });
}

export function transportError(domain: 'github' | 'gitlab', operation: string, error: unknown, timedOut: boolean): AhError {
  const prefix = domain.toUpperCase();
  return new AhError({
    code: timedOut ? `${prefix}_TIMEOUT` : `${prefix}_HTTP_FAILED`,
    message: timedOut ? `${domain} did not answer within the request timeout` : `could not reach the ${domain} API`,
    cause: error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error),
    hint: timedOut ? 'Raise --timeout-secs, or retry.' : 'Check the API URL and the network.',
    retryable: true,
    domain,
    operation,
  });
}
