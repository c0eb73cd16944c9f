/**
 * Results whose JSON text is known (or cheaply built) before the stdio transport writes them: the
 * tools/list result, and large tool results whose text block already is the JSON of their
 * structured content. The transport asks here before it serializes a result itself.
 *
 * The SDK validates every tools/call result and hands the transport the parsed copy, not the
 * object the handler returned, so a large tool result is found by its text block (the same
 * string, never copied) and used only when the copy still has the same members with the same
 * values. JSON text may order members differently; their meaning is the same.
 */
type Pieces = readonly (string | Buffer)[];

const byObject = new WeakMap<object, Pieces>();

interface Large {
  result: ToolResultShape;
  pieces: () => Pieces;
}

interface ToolResultShape {
  content: { type: string; text: string }[];
  structuredContent: Record<string, unknown>;
  _meta: Record<string, unknown>;
}

/** Large results waiting for their write, by text block; oldest first, bounded in total length. */
const large = new Map<string, Large>();
let largeChars = 0;
const MAX_WAITING_CHARS = 64 * 1024 * 1024;

/** The JSON text of a result in pieces whose concatenation is the JSON (tools/list). */
export function rememberSerialized(result: object, pieces: Pieces): void {
  byObject.set(result, pieces);
}

/**
 * A large tool result whose text block is the JSON of its structured content. The pieces are
 * built only when the stdio transport writes it; a transport that never asks (a cancelled call)
 * leaves it to be dropped, oldest first, past the bound.
 */
export function rememberLargeResult(result: ToolResultShape, pieces: () => Pieces): void {
  const text = result.content[0]?.text as string;
  if (large.has(text)) return;
  large.set(text, { result, pieces });
  largeChars += text.length;
  for (const [key] of large) {
    if (largeChars <= MAX_WAITING_CHARS) break;
    large.delete(key);
    largeChars -= key.length;
  }
}

function sameMembers(a: Record<string, unknown> | undefined, b: Record<string, unknown>): boolean {
  if (typeof a !== 'object' || a === null) return false;
  const keys = Object.keys(b);
  if (Object.keys(a).length !== keys.length) return false;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

function sameResult(sent: Record<string, unknown>, built: ToolResultShape): boolean {
  if (Object.keys(sent).length !== 3) return false;
  const content = sent.content as { type?: unknown; text?: unknown }[] | undefined;
  const block = content?.[0] as Record<string, unknown> | undefined;
  return (
    Array.isArray(content) &&
    content.length === 1 &&
    sameMembers(block, built.content[0] as unknown as Record<string, unknown>) &&
    sameMembers(sent.structuredContent as Record<string, unknown> | undefined, built.structuredContent) &&
    sameMembers(sent._meta as Record<string, unknown> | undefined, built._meta)
  );
}

/**
 * The bytes of `{"content":[{"type":"text","text":<json quoted>}],"structuredContent":<json>,"_meta":<meta>}`.
 * Quoting `json` (a JSON.stringify output: no control characters, no lone surrogates) adds only
 * ASCII backslashes and quotes, so its UTF-8 size follows from the size of `json` without
 * measuring the quoted text, which on Node 20 comes back as a rope that is slow to measure (about
 * 5 ms of a 10,000-row answer).
 */
export function toolResultBytes(json: string, meta: Record<string, unknown>): Pieces {
  const quoted = JSON.stringify(json);
  const head = '{"content":[{"type":"text","text":';
  const middle = '}],"structuredContent":';
  const tail = `,"_meta":${JSON.stringify(meta)}}`;
  const jsonBytes = Buffer.byteLength(json, 'utf8');
  const size = head.length + jsonBytes + (quoted.length - json.length) + middle.length + jsonBytes + Buffer.byteLength(tail, 'utf8');
  const bytes = Buffer.allocUnsafe(size);
  let at = bytes.write(head, 0, 'latin1');
  at += bytes.write(quoted, at, 'utf8');
  at += bytes.write(middle, at, 'latin1');
  at += bytes.write(json, at, 'utf8');
  at += bytes.write(tail, at, 'utf8');
  // Only if the reasoning above were wrong: the text pieces, measured one by one.
  return at === size ? [bytes] : [head, quoted, middle, json, tail];
}

/** The JSON text of a result remembered here, in pieces, or undefined. */
export function preserializedResult(result: unknown): Pieces | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const known = byObject.get(result);
  if (known !== undefined || large.size === 0) return known;
  const text = (result as { content?: { text?: unknown }[] }).content?.[0]?.text;
  if (typeof text !== 'string') return undefined;
  const entry = large.get(text);
  if (entry === undefined) return undefined;
  large.delete(text);
  largeChars -= text.length;
  return sameResult(result as Record<string, unknown>, entry.result) ? entry.pieces() : undefined;
}
