/** Input properties shared by the one-off request commands (request, get, post, put, patch, delete, replay). */
import { cliOnly, Type } from '../../../catalog/schema.js';

export const MAX_RESPONSE_BYTES_LIMIT = 67_108_864;
export const DEFAULT_MAX_RESPONSE_BYTES = 8_388_608;
export const DEFAULT_TIMEOUT_SECS = 30;

export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type Method = (typeof METHODS)[number];

export const URL_FIELD = Type.String({ minLength: 1, maxLength: 8192, description: 'Absolute http:// or https:// URL' });

const listOf = (pattern: string, description: string) =>
  Type.Optional(Type.Array(Type.String({ pattern, maxLength: 16_384 }), { maxItems: 100, description }));

/** Status expectation: an exact code, a class (`2xx`) or an inclusive range (`200-299`). */
export const EXPECT_STATUS = Type.Union(
  [Type.Integer({ minimum: 100, maximum: 599 }), Type.String({ pattern: '^([1-5][0-9][0-9]|[1-5]xx|[1-5][0-9][0-9]-[1-5][0-9][0-9])$' })],
  { description: 'Expected status: code (200), class (2xx) or inclusive range (200-299)' },
);

/**
 * Fields with a default are written without one here when `withDefaults` is false: replay must
 * tell an explicit flag (which overrides the curl command) from an absent one.
 */
export function transportInputs(withDefaults: boolean) {
  const num = ({ default: fallback, ...options }: { minimum: number; maximum: number; default: number; description: string }) =>
    withDefaults ? Type.Integer({ ...options, default: fallback }) : Type.Optional(Type.Integer(options));
  return {
    headers: listOf('^[^:\\s][^:]*:.*$', "Request headers, each 'Name: value'"),
    query: listOf('^[^=]+=.*$', "Query parameters appended to the URL, each 'name=value'"),
    timeout_secs: num({
      minimum: 1,
      maximum: 3600,
      default: DEFAULT_TIMEOUT_SECS,
      description: 'Timeout per attempt, in seconds (shortened to the call deadline)',
    }),
    max_response_bytes: num({
      minimum: 1,
      maximum: MAX_RESPONSE_BYTES_LIMIT,
      default: DEFAULT_MAX_RESPONSE_BYTES,
      description: 'Response body bytes kept; a longer body is cut and marked body_truncated',
    }),
    retry: num({
      minimum: 0,
      maximum: 10,
      default: 0,
      description: 'Extra attempts after a transport error, timeout or 5xx (never 4xx); mutating methods may repeat side effects',
    }),
    retry_delay_ms: num({ minimum: 0, maximum: 60_000, default: 0, description: 'Fixed delay between attempts, in milliseconds' }),
    bearer: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 16_384,
        description: 'Bearer token (CLI only)',
        ...cliOnly('Over MCP pass the record id of an http-basic secret as credentials.basic; inline secrets are refused.'),
      }),
    ),
    basic: Type.Optional(
      Type.String({
        pattern: '^[^:]*:.*$',
        maxLength: 16_384,
        description: "Basic credentials 'user:password' (CLI only)",
        ...cliOnly('Over MCP pass the record id of an http-basic secret as credentials.basic.'),
      }),
    ),
  };
}

export const BODY_INPUTS = {
  json: Type.Optional(Type.Unknown({ description: 'JSON request body (any JSON value); sets content-type application/json' })),
  json_file: Type.Optional(Type.String({ minLength: 1, description: 'File holding the JSON body (relative to cwd)' })),
  body: Type.Optional(Type.String({ maxLength: 16_777_216, description: 'Raw request body' })),
  body_file: Type.Optional(Type.String({ minLength: 1, description: 'File holding the raw body (relative to cwd)' })),
};

export const EXPECT_INPUTS = {
  expect_status: Type.Optional(EXPECT_STATUS),
  expect_headers: listOf(
    '^[^:\\s][^:]*:.*$',
    "Expected response headers, each 'Name: value' (exact value; repeated headers joined with ', ')",
  ),
  expect_body_contains: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 16_384 }), { maxItems: 100, description: 'Texts the response body must contain' }),
  ),
  expect_json: listOf(
    '^[^:]*:(eq|contains|exists|match)(:.*)?$',
    "JSON checks 'path:op[:value]', op eq|contains|exists|match, dot paths like data.items.0.id",
  ),
};

export const CLI_ALIASES = {
  header: 'headers',
  'expect-header': 'expect_headers',
} as const;
