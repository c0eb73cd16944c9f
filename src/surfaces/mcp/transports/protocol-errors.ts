/**
 * Malformed JSON-RPC, shared by stdio and HTTP: which reply a bad message gets (-32700 for text
 * that is not JSON, -32600 with the request's id when one can be read), and one `system` log
 * record per transport failure with a short, redacted excerpt of what arrived.
 */
import { isSensitiveName, REDACTED, redactText, redactValue } from '../../../logging/redact.js';
import type { EventLog } from '../../../logging/types.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
/** Characters of an offending message kept in its log record. */
const EXCERPT_CHARS = 200;

export type RequestId = string | number;

export interface ErrorReply {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string };
}

export function errorReply(id: RequestId | null, code: number, message: string): ErrorReply {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function isRequestId(value: unknown): value is RequestId {
  return (typeof value === 'string' && value.length <= 1024) || (typeof value === 'number' && Number.isFinite(value));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Why a parsed value is not a valid JSON-RPC message, in a few words (never its values). */
function invalidReason(value: unknown, fallback: string): string {
  if (!isPlainObject(value)) return Array.isArray(value) ? 'batches are not supported' : 'a message must be a JSON object';
  if (value.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('id' in value && !isRequestId(value.id)) return 'id must be a string or a number';
  if ('method' in value && typeof value.method !== 'string') return 'method must be a string';
  if ('params' in value && !isPlainObject(value.params)) return 'params must be an object';
  return fallback;
}

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);

/**
 * A structural check of one JSON-RPC object, a few property reads (run on every HTTP body, so it
 * stays far cheaper than the SDK's schema parse that follows): the reason it is malformed, or
 * undefined when it has the right shape. Arrays (batches) are left to the SDK.
 */
export function shapeIssue(value: unknown): string | undefined {
  if (Array.isArray(value)) return undefined;
  if (!isPlainObject(value)) return 'a message must be a JSON object';
  for (const key in value) if (!MESSAGE_KEYS.has(key)) return `unknown top-level member '${key.slice(0, 64)}'`;
  const reason = invalidReason(value, '');
  return reason === '' ? undefined : reason;
}

/** The first issue of a schema error (zod), as "path: message", without the offending value. */
export function schemaIssue(error: unknown): string {
  const issues = (error as { issues?: Array<{ path?: unknown[]; message?: string }> } | undefined)?.issues;
  const first = Array.isArray(issues) ? issues[0] : undefined;
  if (!first) return 'the message is not a valid JSON-RPC 2.0 message';
  const path = Array.isArray(first.path) && first.path.length > 0 ? `${first.path.map(String).join('.')}: ` : '';
  return `${path}${String(first.message ?? 'invalid')}`.slice(0, 200);
}

/**
 * The reply to a parsed message the protocol schema refused: -32600 with its id when the id is
 * readable, -32600 with id null when it is not a request at all; undefined for what must not be
 * answered (a notification or a response, which have no id to answer).
 */
export function invalidMessageReply(value: unknown, schemaError: unknown): ErrorReply | undefined {
  const reason = invalidReason(value, schemaIssue(schemaError));
  if (!isPlainObject(value)) return errorReply(null, INVALID_REQUEST, `Invalid Request: ${reason}`);
  const hasId = 'id' in value && value.id !== null && value.id !== undefined;
  if (hasId) return errorReply(isRequestId(value.id) ? value.id : null, INVALID_REQUEST, `Invalid Request: ${reason}`);
  // No id: a notification or a response. Neither gets a reply; the log records it.
  if ('method' in value || 'result' in value || 'error' in value) return undefined;
  return errorReply(null, INVALID_REQUEST, `Invalid Request: ${reason}`);
}

const JSON_SECRET_PAIR = /"([^"\\]{1,64})"\s*:\s*"(?:[^"\\]|\\.)*"/g;

/** A bounded excerpt of raw text, with `"secret-key": "value"` pairs and embedded secrets redacted. */
export function excerptText(text: string): string {
  const cut = text.length > EXCERPT_CHARS * 2 ? text.slice(0, EXCERPT_CHARS * 2) : text;
  const paired = cut.replace(JSON_SECRET_PAIR, (pair, key: string) => (isSensitiveName(key) ? `"${key}":"${REDACTED}"` : pair));
  const redacted = redactText(paired);
  return redacted.length > EXCERPT_CHARS ? `${redacted.slice(0, EXCERPT_CHARS)}…` : redacted;
}

/** A bounded, redacted excerpt of a parsed value. */
export function excerptValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(redactValue(value)) ?? String(value);
  } catch {
    text = String(value);
  }
  return excerptText(text);
}

export interface TransportFailure {
  transport: 'stdio' | 'http';
  /** Stable code: MCP_PROTOCOL_ERROR (bad message), MCP_TRANSPORT_ERROR (stream/SDK failure). */
  code: 'MCP_PROTOCOL_ERROR' | 'MCP_TRANSPORT_ERROR' | 'MCP_MESSAGE_TOO_LARGE';
  message: string;
  excerpt?: string;
  /** The JSON-RPC error code answered, when one was. */
  replied?: number;
}

/**
 * Records a transport failure. Cheap enough to call per bad message: the log sink batches
 * writes; a flood of malformed lines costs one bounded record each, never an unbounded one.
 */
export function logTransportFailure(log: EventLog, failure: TransportFailure): void {
  const context: Record<string, unknown> = { transport: failure.transport };
  if (failure.excerpt !== undefined) context.excerpt = failure.excerpt;
  if (failure.replied !== undefined) context.replied_jsonrpc_code = failure.replied;
  log.system({
    component: 'mcp_transport',
    severity: 'warning',
    diagnostic: { code: failure.code, message: redactText(failure.message).slice(0, 500), exit_code_hint: 0 },
    context,
  });
}
