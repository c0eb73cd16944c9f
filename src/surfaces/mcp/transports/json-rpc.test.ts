import { parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { parseMessage } from './json-rpc.js';

const outcome = (parse: (value: unknown) => unknown, value: unknown) => {
  try {
    return { ok: parse(value) };
  } catch {
    return { error: true };
  }
};

describe('parseMessage', () => {
  it('accepts and refuses exactly what the SDK parse does', () => {
    const cases: unknown[] = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: { a: 1 } } },
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {}, extra: true },
      { jsonrpc: '1.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1.5, method: 'tools/list' },
      { jsonrpc: '2.0', id: null, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [1] },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: null },
      { jsonrpc: '2.0', id: 1, method: 7 },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 'p' } } },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: {} } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, result: {} },
      [1],
      null,
      'text',
    ];
    for (const value of cases) {
      const ours = outcome(parseMessage, value);
      const sdk = outcome(parseJSONRPCMessage, value);
      expect('error' in ours, JSON.stringify(value)).toBe('error' in sdk);
      if ('ok' in ours) expect(ours.ok).toEqual(sdk.ok);
    }
  });
});
