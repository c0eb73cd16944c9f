/**
 * The rules an HTTP endpoint must meet before an agent is pointed at it: ah serves MCP only on
 * loopback, at `/mcp`, over plain http, so anything else is a typo or a foreign server.
 */
import { AhError } from '../errors.js';

export const DEFAULT_HTTP_URL = 'http://127.0.0.1:8787/mcp';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

function invalid(raw: string, why: string): AhError {
  return new AhError({
    code: 'AI_URL_INVALID',
    message: `'${raw}' is not a usable ah MCP endpoint: ${why}`,
    hint: `Use a URL like ${DEFAULT_HTTP_URL} (http, no user or password, path /mcp, no query or fragment).`,
    operation: 'ai.install',
  });
}

/** Returns the URL as given when it is a loopback `http://host:port/mcp`; throws AI_URL_* otherwise. */
export function checkMcpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(raw, 'it does not parse as a URL');
  }
  if (url.protocol !== 'http:') throw invalid(raw, `the scheme must be http, not ${url.protocol.replace(':', '')}`);
  if (url.username !== '' || url.password !== '') throw invalid(raw, 'it must not carry a user name or password');
  if (url.pathname !== '/mcp') throw invalid(raw, `the path must be exactly /mcp, not ${url.pathname}`);
  if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#'))
    throw invalid(raw, 'it must have no query or fragment');
  if (!LOOPBACK_HOSTS.has(url.hostname)) {
    throw new AhError({
      code: 'AI_URL_NOT_LOOPBACK',
      message: `'${url.hostname}' is not a loopback host: ah serves MCP on this machine only`,
      hint: 'Use 127.0.0.1, [::1] or localhost.',
      operation: 'ai.install',
    });
  }
  return raw;
}

/** `<origin>/health/ready` for an endpoint that passed checkMcpUrl. */
export function readinessUrl(mcpUrl: string): string {
  return `${new URL(mcpUrl).origin}/health/ready`;
}
