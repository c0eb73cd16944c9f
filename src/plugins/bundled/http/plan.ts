/**
 * Turns one-off request inputs into a request plan: URL with query, ordered headers, one auth
 * source, one body. Every conflict is found here, before anything is sent.
 */
import type { CommandContext } from '../../../catalog/descriptor.js';
import { AhError } from '../../../errors.js';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_SECS } from './inputs.js';
import { readInputFile } from './read-input-file.js';

export interface OneOffInput {
  url: string;
  method?: string;
  headers?: string[];
  query?: string[];
  timeout_secs?: number;
  max_response_bytes?: number;
  retry?: number;
  retry_delay_ms?: number;
  bearer?: string;
  basic?: string;
  json?: unknown;
  json_file?: string;
  body?: string;
  body_file?: string;
  expect_status?: number | string;
  expect_headers?: string[];
  expect_body_contains?: string[];
  expect_json?: string[];
}

export interface RequestPlan {
  method: string;
  url: URL;
  headers: [string, string][];
  body: Buffer | undefined;
  timeoutMs: number;
  maxBytes: number;
  retry: number;
  retryDelayMs: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function invalid(message: string, hint?: string, cause?: string): AhError {
  return new AhError({ code: 'INVALID_ARGUMENT', message, hint, cause, domain: 'http' });
}

/** Splits 'Name: value'; the value never appears in an error (it may be a secret). */
export function parseHeader(raw: string, field = 'header'): [string, string] {
  const colon = raw.indexOf(':');
  const name = colon === -1 ? '' : raw.slice(0, colon).trim();
  if (!TOKEN.test(name))
    throw invalid(`${field} must be 'Name: value' with a valid header name`, "Example: --header 'Accept: application/json'.");
  const value = raw.slice(colon + 1).trim();
  if (/[\r\n\0]/.test(value)) throw invalid(`${field} '${name}' has a line break or NUL in its value`);
  return [name, value];
}

export function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(
      'url is not an absolute URL',
      'Write it with its scheme, e.g. http://127.0.0.1:8080/health.',
      `got '${raw.slice(0, 200).replace(/\/\/[^/@]*@/, '//…@')}'`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid(`url scheme '${url.protocol.slice(0, -1)}' is not supported`, 'Use http:// or https://.');
  return url;
}

const basicHeader = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

export interface AuthSources {
  bearer?: string | undefined;
  basic?: string | undefined;
  /** Values of the `basic` credential slot, when the call named a vault record. */
  slot?: Readonly<Record<string, string>> | undefined;
}

/**
 * Picks the one Authorization source. Over MCP only the credential slot may carry a secret: a
 * token or password in the arguments would travel through MCP traffic and client transcripts.
 */
function authorization(url: URL, headers: [string, string][], auth: AuthSources, inlineAllowed: boolean): string | undefined {
  const sources: string[] = [];
  if (auth.bearer !== undefined) sources.push('bearer');
  if (auth.basic !== undefined) sources.push('basic');
  if (auth.slot !== undefined) sources.push('credentials.basic');
  if (headers.some(([n]) => n.toLowerCase() === 'authorization')) sources.push('an Authorization header');
  if (url.username !== '' || url.password !== '') sources.push('URL userinfo');
  if (sources.length > 1) {
    throw invalid(
      `only one credential source may be used, got ${sources.join(' and ')}`,
      'Keep one of bearer, basic, credentials.basic, an Authorization header or URL userinfo.',
    );
  }
  if (!inlineAllowed && sources.length === 1 && sources[0] !== 'credentials.basic') {
    throw invalid(
      `${sources[0]} is not accepted over MCP: secret values must not travel in tool arguments`,
      'Store the credentials in the vault (ah secrets add, kind http-basic) and pass {"credentials":{"basic":"<record id>"}}.',
    );
  }
  if (auth.bearer !== undefined) return `Bearer ${auth.bearer}`;
  if (auth.basic !== undefined) {
    const colon = auth.basic.indexOf(':');
    return basicHeader(auth.basic.slice(0, colon), auth.basic.slice(colon + 1));
  }
  if (auth.slot !== undefined) return basicHeader(auth.slot.username ?? '', auth.slot.password ?? '');
  if (url.username !== '' || url.password !== '') return basicHeader(decodeURIComponent(url.username), decodeURIComponent(url.password));
  return undefined;
}

async function requestBody(input: OneOffInput, ctx: CommandContext, headers: [string, string][]): Promise<Buffer | undefined> {
  const given = (['json', 'json_file', 'body', 'body_file'] as const).filter((k) => input[k] !== undefined);
  if (given.length > 1) throw invalid(`at most one of json, json_file, body, body_file may be given, got ${given.join(', ')}`);
  const hasType = headers.some(([n]) => n.toLowerCase() === 'content-type');
  const json = (text: string) => {
    if (!hasType) headers.push(['content-type', 'application/json']);
    return Buffer.from(text, 'utf8');
  };
  if (input.json !== undefined) return json(JSON.stringify(input.json));
  if (input.json_file !== undefined) {
    const bytes = await readInputFile(ctx.cwd, input.json_file, 'json_file');
    try {
      JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw new AhError({
        code: 'JSON_DESERIALIZATION_FAILED',
        message: `json_file is not valid JSON: ${input.json_file}`,
        cause: (error as Error).message,
        domain: 'http',
        operation: 'json',
      });
    }
    return json(bytes.toString('utf8'));
  }
  if (input.body !== undefined) return Buffer.from(input.body, 'utf8');
  if (input.body_file !== undefined) return readInputFile(ctx.cwd, input.body_file, 'body_file');
  return undefined;
}

/** The client's own header rules (e.g. values outside Latin-1), found before anything is sent. */
function checkHeaderValues(headers: [string, string][]): void {
  for (const [name, value] of headers) {
    try {
      new Headers([[name, value]]);
    } catch (error) {
      throw new AhError({
        code: 'HTTP_CLIENT_BUILD_FAILED',
        message: `header '${name}' cannot be sent`,
        cause: (error as Error).message.replace(value, '…'),
        hint: 'Header values must be Latin-1 text; encode other characters (e.g. percent-encoding).',
        domain: 'http',
      });
    }
  }
}

const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * `inlineAllowed` defaults to "not over MCP": tool arguments must not carry secrets. A spec file
 * on disk may hold its own Authorization headers (nothing crosses MCP), so assert allows them.
 */
export async function buildPlan(
  method: string,
  input: OneOffInput,
  ctx: CommandContext,
  auth: AuthSources,
  inlineAllowed = ctx.transport !== 'mcp',
): Promise<RequestPlan> {
  if (!/^[A-Z]{1,20}$/.test(method) || FORBIDDEN_METHODS.has(method))
    throw invalid(`method '${method.slice(0, 20)}' is not supported`, 'Use GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS.');
  const url = parseUrl(input.url);
  for (const pair of input.query ?? []) {
    const eq = pair.indexOf('=');
    url.searchParams.append(pair.slice(0, eq), pair.slice(eq + 1));
  }
  const headers = (input.headers ?? []).map((h) => parseHeader(h));
  const authValue = authorization(url, headers, auth, inlineAllowed);
  url.username = '';
  url.password = '';
  if (authValue !== undefined && !headers.some(([n]) => n.toLowerCase() === 'authorization')) headers.push(['authorization', authValue]);
  checkHeaderValues(headers);
  const body = await requestBody(input, ctx, headers);
  if (body !== undefined && (method === 'GET' || method === 'HEAD'))
    throw invalid(`a ${method} request cannot carry a body`, 'Use POST, PUT or PATCH, or drop the body.');
  return {
    method,
    url,
    headers,
    body,
    timeoutMs: (input.timeout_secs ?? DEFAULT_TIMEOUT_SECS) * 1000,
    maxBytes: input.max_response_bytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    retry: input.retry ?? 0,
    retryDelayMs: input.retry_delay_ms ?? 0,
  };
}
