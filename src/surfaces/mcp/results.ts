/** Outcome → MCP CallToolResult. Only protocol problems become JSON-RPC errors elsewhere. */
import type { Notice, ToolContent } from '../../catalog/descriptor.js';
import { toDiagnostic } from '../../errors.js';
import { jsonPieces, rememberLargeResult, toolResultBytes } from './serialized.js';
import { DIAGNOSTIC_META, EXECUTION_META } from './tool-definition.js';

export interface ToolResult {
  [key: string]: unknown;
  content: ToolContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/**
 * The human rendering rides along only while it is small: for big results (a 1 MiB file read) it
 * would double the payload, and the structured content already carries the same data.
 */
export const MAX_RENDERED_TEXT_BYTES = 16 * 1024;
/**
 * Results with this much JSON or more are not rendered at all: their rendering is nearly always
 * past the cap above, and building it only to drop it cost ~2 ms for a 10,000-row table.
 */
const MAX_RENDERED_JSON_CHARS = 64 * 1024;
/** Results from this size of JSON on are written from the text they were built with (serialized.ts). */
const PRESERIALIZE_MIN_CHARS = 64 * 1024;

/** True when the rendering is exactly one of the result's top-level strings (a plain file read). */
function repeatsField(data: Record<string, unknown>, text: string): boolean {
  for (const key in data) if (data[key] === text) return true;
  return false;
}

/** The rendering to send, if it is small and says something the data's own fields do not. */
function smallRendering(data: Record<string, unknown>, text: string | undefined): string | undefined {
  if (text === undefined || text.length > MAX_RENDERED_TEXT_BYTES || repeatsField(data, text)) return undefined;
  // A UTF-16 code unit is at most 3 UTF-8 bytes: short texts skip the byte count.
  return text.length * 3 <= MAX_RENDERED_TEXT_BYTES || Buffer.byteLength(text) <= MAX_RENDERED_TEXT_BYTES ? text : undefined;
}

/** The pieces as one string made by `+`: V8 links them (a rope) instead of copying 2 MB (join). */
function joinAsRope(pieces: readonly string[]): string {
  let text = '';
  for (const piece of pieces) text += piece;
  return text;
}

export function successResult(
  data: Record<string, unknown>,
  requestId: string,
  render?: () => string | undefined,
  notices?: readonly Notice[],
  content?: readonly ToolContent[],
): ToolResult {
  // A command that builds its own content (an image, a resource) replaces the JSON text block.
  // The JSON is built in pieces the transports encode as they are (serialized.ts); the text block
  // holds their concatenation, which nothing on that path needs to flatten.
  const pieces = content ? undefined : jsonPieces(data);
  const json = pieces === undefined ? undefined : joinAsRope(pieces);
  const execution: Record<string, unknown> = { request_id: requestId };
  const text = json !== undefined && json.length >= MAX_RENDERED_JSON_CHARS ? undefined : smallRendering(data, render?.());
  if (text !== undefined) execution.text = text;
  if (notices && notices.length > 0) execution.notices = notices;
  const meta = { [EXECUTION_META]: execution };
  if (json === undefined) return { content: [...(content ?? [])], structuredContent: data, _meta: meta };
  const result = { content: [{ type: 'text' as const, text: json }], structuredContent: data, _meta: meta };
  // The data's JSON is already at hand: the wire need not serialize the data a second time.
  if (pieces !== undefined && json !== undefined && json.length >= PRESERIALIZE_MIN_CHARS)
    rememberLargeResult(result, () => toolResultBytes(pieces, meta));
  return result;
}

export function errorResult(error: unknown, fallback?: { domain?: string; operation?: string }): ToolResult {
  const d = toDiagnostic(error, fallback);
  const diagnostic: Record<string, unknown> = {
    code: d.code,
    message: d.message,
    cause: d.cause,
    retryable: d.retryable,
    exit_code_hint: d.exit_code_hint,
  };
  if (d.domain !== null) diagnostic.domain = d.domain;
  if (d.operation !== null) diagnostic.operation = d.operation;
  return {
    isError: true,
    content: [{ type: 'text', text: `${d.code}: ${d.message}` }],
    _meta: { [DIAGNOSTIC_META]: diagnostic },
  };
}
