/**
 * Results whose JSON text is known (or cheaply built) before a transport writes them: the
 * tools/list result, and large tool results whose text block already is the JSON of their
 * structured content. The stdio and HTTP transports ask here (messagePieces) before they
 * serialize a message themselves.
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
 * built only when a transport writes it; a result never written (a cancelled call) is dropped,
 * oldest first, past the bound.
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

/** Elements per slice of a long array in jsonPieces. */
const SLICE = 256;
/** Characters per slice of a long string in jsonPieces (a file.read of a big file). */
const STRING_SLICE = 65_536;

function isLong(value: unknown): boolean {
  return (Array.isArray(value) && value.length > SLICE) || (typeof value === 'string' && value.length > STRING_SLICE);
}

/** A long string's JSON, a slice at a time; a cut never splits a surrogate pair. */
function stringPieces(name: string, value: string, pieces: string[]): void {
  pieces.push(`${name}"`);
  for (let at = 0; at < value.length; ) {
    let end = Math.min(at + STRING_SLICE, value.length);
    const last = value.charCodeAt(end - 1);
    if (end < value.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    pieces.push(JSON.stringify(value.slice(at, end)).slice(1, -1));
    at = end;
  }
  pieces.push('"');
}

/**
 * JSON.stringify(data) in pieces whose concatenation is the same text: a long array among the
 * top-level members is stringified a slice at a time, and so is a long string. A single 2 MB JSON
 * text (a 10,000-row answer) costs ~5 ms more on Node 20 to bring into one flat string than the
 * same text in slices costs to encode; the pieces are encoded one by one (toolResultBytes) and
 * never joined. A 1 MiB file.read was ~9 ms of JSON.stringify and quoting in one piece, ~4 ms in
 * slices.
 */
export function jsonPieces(data: Record<string, unknown>): string[] {
  const keys = Object.keys(data);
  if (typeof data.toJSON === 'function' || !keys.some((key) => isLong(data[key]))) return [JSON.stringify(data)];
  const pieces: string[] = [];
  let separator = '{';
  for (const key of keys) {
    const value = data[key];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    const name = `${separator}${JSON.stringify(key)}:`;
    separator = ',';
    if (!isLong(value)) {
      pieces.push(name + JSON.stringify(value));
      continue;
    }
    if (typeof value === 'string') {
      stringPieces(name, value, pieces);
      continue;
    }
    const list = value as unknown[];
    pieces.push(`${name}[`);
    for (let at = 0; at < list.length; at += SLICE) {
      const slice = JSON.stringify(list.slice(at, at + SLICE));
      pieces.push(at === 0 ? slice.slice(1, -1) : `,${slice.slice(1, -1)}`);
    }
    pieces.push(']');
  }
  pieces.push(separator === '{' ? '{}' : '}');
  return pieces;
}

/**
 * The bytes of `{"content":[{"type":"text","text":<json quoted>}],"structuredContent":<json>,"_meta":<meta>}`,
 * where `json` is the concatenation of `pieces` (jsonPieces), in three pieces for one writev.
 * The quoted form is made piece by piece: JSON.stringify of one piece, without its two quotes, is
 * that piece's part of the quoted whole, because the pieces split the JSON only between array
 * elements or between escapes of a long string, never inside an escape or a surrogate pair. Each
 * piece is a flat string of ~50 KB that V8's serializer quotes natively, where quoting the joined
 * 2 MB text would first flatten a rope (~3 ns per character on Node 20) and a byte loop in
 * JavaScript cost ~5 ms for a 10,000-row answer against ~3 ms this way.
 */
export function toolResultBytes(pieces: readonly string[], meta: Record<string, unknown>): Pieces {
  const head = '{"content":[{"type":"text","text":"';
  const middle = '"}],"structuredContent":';
  const quotedPieces = pieces.map((piece) => JSON.stringify(piece));
  let jsonBytes = 0;
  for (const piece of pieces) jsonBytes += Buffer.byteLength(piece, 'utf8');
  // Each quoted piece is its piece's bytes plus one backslash per quote or backslash, plus its own two quotes.
  let quotedBytes = head.length + middle.length;
  for (const piece of quotedPieces) quotedBytes += Buffer.byteLength(piece, 'utf8') - 2;
  const json = Buffer.allocUnsafe(jsonBytes);
  let written = 0;
  for (const piece of pieces) written += json.write(piece, written, 'utf8');
  const quoted = Buffer.allocUnsafe(quotedBytes);
  let at = quoted.write(head, 0, 'latin1');
  for (const piece of quotedPieces) at += quoted.write(piece.slice(1, -1), at, 'utf8');
  quoted.write(middle, at, 'latin1');
  return [quoted, json, `,"_meta":${JSON.stringify(meta)}}`];
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

/**
 * A JSON-RPC message's JSON text in pieces: a response whose result is remembered here goes out
 * from those pieces (the same text as JSON.stringify of {result, jsonrpc, id}, without
 * stringifying the tool list or a large result again); any other message is one JSON.stringify.
 * A large result is taken by its first lookup: a second write of it (an SSE replay) serializes.
 */
export function messagePieces(message: object): Pieces {
  const response = message as { result?: unknown; id?: unknown };
  const raw = response.result === undefined ? undefined : preserializedResult(response.result);
  if (raw !== undefined && (typeof response.id === 'number' || typeof response.id === 'string'))
    return ['{"result":', ...raw, `,"jsonrpc":"2.0","id":${JSON.stringify(response.id)}}`];
  return [JSON.stringify(message)];
}

/** The UTF-8 length of pieces, as written. */
export function piecesByteLength(pieces: Pieces): number {
  let bytes = 0;
  for (const piece of pieces) bytes += typeof piece === 'string' ? Buffer.byteLength(piece, 'utf8') : piece.length;
  return bytes;
}
