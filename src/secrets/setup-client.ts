/**
 * The CLI side of `ah secrets add|edit --open`: asks the local HTTP server for a setup link,
 * checks that the link points back at that same loopback server in exactly the expected shape
 * (a compromised or impostor server must not send the user elsewhere), then tries to open it.
 */
import { AhError } from '../errors.js';
import { launchDetached } from '../platform/exec.js';

const DEFAULT_SETUP_ORIGIN = 'http://127.0.0.1:8787';
const REQUEST_TIMEOUT_MS = 10_000;

export interface SetupRequest {
  action: 'create' | 'edit';
  id: string;
  kind?: string;
  label?: string;
  description?: string;
}

function urlError(message: string, hint?: string): AhError {
  return new AhError({ code: 'VAULT_SETUP_URL_INVALID', message, hint, operation: 'secrets.setup' });
}

/** The server origin from AH_MCP_HTTP_URL: only `http://127.0.0.1:PORT`, optionally with one trailing slash. */
export function setupOrigin(raw: string | undefined): string {
  if (raw === undefined || raw === '') return DEFAULT_SETUP_ORIGIN;
  const match = /^http:\/\/127\.0\.0\.1:([1-9][0-9]{0,4})\/?$/.exec(raw);
  const port = match ? Number(match[1]) : 0;
  if (port < 1 || port > 65535) {
    throw urlError(
      'AH_MCP_HTTP_URL must be exactly http://127.0.0.1:PORT',
      'Secret setup only talks to the local server: no https, other hosts, credentials, paths, queries or fragments.',
    );
  }
  return `http://127.0.0.1:${port}`;
}

/**
 * Accepts only `<origin>/secrets/setup?capability=<value>` in canonical form. Messages say what is
 * wrong but never repeat the URL: it carries the capability.
 */
export function validateSetupUrl(raw: unknown, origin: string): string {
  if (typeof raw !== 'string' || raw === '') throw urlError('the server did not return a setup URL');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw urlError('the server returned a setup URL that does not parse');
  }
  const expected = new URL(origin);
  if (url.protocol !== 'http:' || url.hostname !== expected.hostname || url.port !== expected.port) {
    throw urlError('the setup URL does not point at the configured local server');
  }
  if (url.username !== '' || url.password !== '') throw urlError('the setup URL carries credentials');
  if (url.pathname !== '/secrets/setup') throw urlError('the setup URL has an unexpected path');
  if (url.hash !== '' || raw.includes('#')) throw urlError('the setup URL has a fragment');
  const pairs = [...url.searchParams];
  if (pairs.length !== 1 || pairs[0]?.[0] !== 'capability')
    throw urlError('the setup URL must have exactly one query parameter, capability');
  if (!/^[A-Za-z0-9_-]+$/.test(pairs[0][1])) throw urlError('the setup URL has an empty or malformed capability');
  // Anything the URL parser would silently normalise (whitespace, case, escapes) is refused too.
  if (url.href !== raw) throw urlError('the setup URL is not in canonical form');
  return raw;
}

function unavailable(origin: string, cause: string): AhError {
  return new AhError({
    code: 'MCP_SERVER_UNAVAILABLE',
    // One line a person can act on: the URL tried and the command that makes it answer.
    message: `no ah HTTP server answered at ${origin}/secrets/setup: start one with \`ah mcp serve --transport http --port ${new URL(origin).port}\` (or set AH_MCP_HTTP_URL to the running one's URL)`,
    cause,
    hint: 'The setup page is served by the HTTP server: keep `ah mcp serve --transport http` running in another terminal, or use the managed service (`ah mcp service start`).',
    retryable: true,
    operation: 'secrets.setup',
  });
}

async function requestCapability(origin: string, request: SetupRequest): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${origin}/secrets/setup/capability`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
      redirect: 'error',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw unavailable(origin, String(reason));
  }
  let data: unknown;
  try {
    data = await response.json();
  } catch {
    throw unavailable(origin, `HTTP ${response.status} without a JSON body: is this an ah server?`);
  }
  if (!response.ok) {
    const error = (data as { error?: { code?: unknown; message?: unknown; hint?: unknown } } | null)?.error;
    if (typeof error?.code === 'string' && typeof error.message === 'string') {
      throw new AhError({
        code: error.code,
        message: error.message,
        hint: typeof error.hint === 'string' ? error.hint : undefined,
        operation: 'secrets.setup',
      });
    }
    throw unavailable(origin, `HTTP ${response.status} with an unexpected body`);
  }
  return (data as { setup_url?: unknown } | null)?.setup_url;
}

/** The platform's URL opener; undefined where opening is pointless (no display on Linux). */
function opener(env: Record<string, string | undefined>, url: string): [string, string[]] | undefined {
  if (process.platform === 'darwin') return ['open', [url]];
  // rundll32 hands the URL to the default browser without cmd.exe parsing it.
  if (process.platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  // Without a display xdg-open may start a terminal browser on our terminal; printing the URL is better.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return ['xdg-open', [url]];
}

/** The opener inherits only what it needs to find a desktop session; nothing vault-related. */
function openerEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const keep = [
    'PATH',
    'HOME',
    'USER',
    'LANG',
    'LC_ALL',
    'DISPLAY',
    'WAYLAND_DISPLAY',
    'XDG_RUNTIME_DIR',
    'XDG_CURRENT_DESKTOP',
    'XDG_DATA_DIRS',
    'XDG_CONFIG_DIRS',
    'DBUS_SESSION_BUS_ADDRESS',
    'BROWSER',
    'SYSTEMROOT',
    'USERPROFILE',
    'APPDATA',
    'TMPDIR',
    'TEMP',
  ];
  return Object.fromEntries(keep.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
}

export async function openSetup(options: {
  env: Record<string, string | undefined>;
  request: SetupRequest;
}): Promise<{ setup_url: string; opened: boolean }> {
  const origin = setupOrigin(options.env.AH_MCP_HTTP_URL);
  const setupUrl = validateSetupUrl(await requestCapability(origin, options.request), origin);
  let opened = false;
  if (options.env.AH_NO_BROWSER !== '1') {
    const command = opener(options.env, setupUrl);
    // Best effort: a missing opener is not an error, the caller prints the URL anyway.
    if (command) opened = await launchDetached(command[0], command[1], openerEnv(options.env));
  }
  return { setup_url: setupUrl, opened };
}
