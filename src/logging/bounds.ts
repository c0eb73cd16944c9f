/** Size bounds for log records: strings, collections, depth, and the whole record. */

const MAX_STRING_BYTES = 4096;
export const MAX_ENTRIES = 100;
export const MAX_DEPTH = 8;
export const MAX_RECORD_BYTES = 64 * 1024;
export const MAX_MESSAGE_BYTES = 1024;

/** Cuts a string to at most `limit` UTF-8 bytes on a character boundary, with a marker. */
export function cutString(text: string, limit = MAX_STRING_BYTES): string {
  const bytes = Buffer.byteLength(text);
  if (bytes <= limit) return text;
  const buffer = Buffer.from(text);
  let end = limit;
  // Step back over continuation bytes so no character is split.
  while (end > 0 && ((buffer[end] as number) & 0xc0) === 0x80) end -= 1;
  return `${buffer.subarray(0, end).toString('utf8')}…[truncated ${bytes - end} bytes]`;
}

export function boundValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cutString(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[truncated: too deep]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ENTRIES).map((v) => boundValue(v, depth + 1));
    if (value.length > MAX_ENTRIES) items.push(`[truncated ${value.length - MAX_ENTRIES} entries]`);
    return items;
  }
  const entries = Object.entries(value);
  const out: Record<string, unknown> = {};
  for (const [key, inner] of entries.slice(0, MAX_ENTRIES)) out[cutString(key, 256)] = boundValue(inner, depth + 1);
  if (entries.length > MAX_ENTRIES) out._truncated_entries = entries.length - MAX_ENTRIES;
  return out;
}
