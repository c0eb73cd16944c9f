import { describe, expect, it } from 'vitest';
import { successResult } from './results.js';
import { jsonPieces, messagePieces, piecesByteLength, preserializedResult, rememberSerialized, toolResultBytes } from './serialized.js';

const text = (pieces: readonly (string | Buffer)[]) =>
  Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))).toString('utf8');

/** Data whose JSON has every kind of character quoting treats differently, and is large. */
function awkwardData(): Record<string, unknown> {
  const rows = [];
  for (let i = 0; i < 3000; i += 1)
    rows.push({ id: i, q: 'say "hi"\\ now', ctl: '\u0001\t\n', wide: 'é 漢字 😀', seps: '\u2028\u2029', lone: '\ud800x', n: null });
  return { command: 'x.test', rows };
}

/** What the SDK hands the transport: a validated copy with the same members, not the same object. */
function copied(result: Record<string, unknown>): Record<string, unknown> {
  const content = (result.content as Record<string, unknown>[]).map((block) => ({ ...block }));
  return {
    _meta: { ...(result._meta as object) },
    content,
    structuredContent: { ...(result.structuredContent as object) },
  };
}

describe('large tool results written from their own JSON', () => {
  it('toolResultBytes is byte for byte JSON.stringify of the result', () => {
    const data = awkwardData();
    const json = JSON.stringify(data);
    const meta = { 'dev.aihelper/execution': { request_id: 'mcp:n:1:e:1', notices: ['ü'] } };
    const expected = JSON.stringify({ content: [{ type: 'text', text: json }], structuredContent: data, _meta: meta });
    const pieces = toolResultBytes(jsonPieces(data), meta);
    expect(text(pieces)).toBe(expected);
  });

  it('jsonPieces joins to JSON.stringify: long arrays in slices, skipped members, empty objects', () => {
    const rows = awkwardData().rows as unknown[];
    const cases: Record<string, unknown>[] = [
      awkwardData(),
      { a: undefined, f: () => 1, rows, s: Symbol('x'), tail: [1, undefined, 3] },
      { only: undefined, rows: [...rows.slice(0, 257), undefined] },
      { nested: { rows }, n: null },
      { short: [1, 2, 3] },
      {},
      { rows: new Array(600) },
      { when: new Date(0), rows },
    ];
    for (const data of cases) expect(jsonPieces(data).join('')).toBe(JSON.stringify(data));
    expect(jsonPieces(awkwardData()).length).toBeGreaterThan(10);
  });

  it('jsonPieces slices a long string without splitting an escape or a surrogate pair', () => {
    const cut = 65_536;
    const line = 'say "hi"\\ now \u0001\t é 漢字 \u2028\n';
    const cases = [
      'y'.repeat(cut + 1),
      line.repeat(10_000),
      // A pair, a lone high and a lone low surrogate, each across the first cut.
      `${'a'.repeat(cut - 1)}😀${'b'.repeat(cut)}`,
      `${'a'.repeat(cut - 1)}\ud800x${'b'.repeat(cut)}`,
      `${'a'.repeat(cut)}\udc00${'b'.repeat(cut)}`,
      // A lone high surrogate that ends the string where a slice ends.
      `${'a'.repeat(2 * cut - 1)}\ud800`,
    ];
    for (const content of cases) {
      const data = { command: 'file.read', content, truncated: false };
      const pieces = jsonPieces(data);
      expect(pieces.length).toBeGreaterThan(3);
      expect(pieces.join('')).toBe(JSON.stringify(data));
      const meta = { 'dev.aihelper/execution': { request_id: 'r' } };
      const expected = JSON.stringify({ content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data, _meta: meta });
      expect(text(toolResultBytes(pieces, meta))).toBe(expected);
    }
    expect(jsonPieces({ content: 'y'.repeat(cut) })).toHaveLength(1);
  });

  it('matches the SDK copy of a large result by its text block, once', () => {
    const result = successResult(awkwardData(), 'mcp:n:7:e:7');
    const sent = copied(result);
    const pieces = preserializedResult(sent);
    expect(pieces).toBeDefined();
    expect(JSON.parse(text(pieces ?? []))).toEqual(JSON.parse(JSON.stringify(result)));
    // Taken: a second send of the same text serializes normally.
    expect(preserializedResult(copied(result))).toBeUndefined();
  });

  it('is not used when the copy differs, or for small results', () => {
    const changed = successResult(awkwardData(), 'mcp:n:8:e:8');
    const sent = copied(changed);
    (sent.structuredContent as Record<string, unknown>).extra = true;
    expect(preserializedResult(sent)).toBeUndefined();
    const small = successResult({ command: 'x.small' }, 'mcp:n:9:e:9');
    expect(preserializedResult(copied(small))).toBeUndefined();
  });
});

describe('messagePieces', () => {
  it('is JSON.stringify for a message without a remembered result', () => {
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect(messagePieces(request)).toEqual([JSON.stringify(request)]);
    const answer = { jsonrpc: '2.0', id: 'a', result: { tools: [] } };
    expect(messagePieces(answer)).toEqual([JSON.stringify(answer)]);
  });

  it('writes a remembered result from its bytes, with the id as given (number or string)', () => {
    const result = { tools: [{ name: 'ah.x', description: 'caf\u00e9 "x"' }], ttlMs: 60000 };
    rememberSerialized(result, [Buffer.from(JSON.stringify(result), 'utf8')]);
    for (const id of [7, 'req-7']) {
      const pieces = messagePieces({ jsonrpc: '2.0', id, result });
      expect(pieces.length).toBeGreaterThan(1);
      expect(JSON.parse(text(pieces))).toEqual({ jsonrpc: '2.0', id, result });
      expect(piecesByteLength(pieces)).toBe(Buffer.byteLength(text(pieces)));
    }
  });

  it('counts UTF-8 bytes of strings and the length of buffers', () => {
    expect(piecesByteLength(['\u00e9', Buffer.from('ab'), '\u{1F600}'])).toBe(2 + 2 + 4);
  });
});
