import { describe, expect, it } from 'vitest';
import { excerptText, excerptValue, invalidMessageReply, shapeIssue } from './protocol-errors.js';

describe('protocol errors', () => {
  it('answers with the id when one is readable, id null when not, and nothing to notifications', () => {
    expect(invalidMessageReply({ jsonrpc: '2.0', id: 4, method: 'x', extra: 1 }, undefined)).toMatchObject({
      id: 4,
      error: { code: -32600 },
    });
    expect(invalidMessageReply({ jsonrpc: '1.0', id: 'a', method: 'x' }, undefined)?.error.message).toContain('jsonrpc');
    expect(invalidMessageReply({ jsonrpc: '2.0', id: { no: 1 }, method: 'x' }, undefined)).toMatchObject({ id: null });
    expect(invalidMessageReply([1, 2], undefined)).toMatchObject({ id: null, error: { code: -32600 } });
    expect(invalidMessageReply({ jsonrpc: '2.0', method: 'notifications/x', params: 3 }, undefined)).toBeUndefined();
  });

  it('spots malformed shapes cheaply and leaves well-formed ones alone', () => {
    expect(shapeIssue({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBeUndefined();
    expect(shapeIssue({ jsonrpc: '2.0', id: 1, method: 'ping', params: {} })).toBeUndefined();
    expect(shapeIssue({ jsonrpc: '2.0', id: 1, method: 'ping', extra: true })).toContain('extra');
    expect(shapeIssue({ jsonrpc: '2.0', id: 1, method: 'ping', params: [] })).toContain('params');
    expect(shapeIssue([{ jsonrpc: '2.0' }])).toBeUndefined();
  });

  it('keeps excerpts short and free of secret values', () => {
    const raw = `{"jsonrpc":"2.0","id":1,"params":{"arguments":{"password":"hunter2","api_key":"k-123"}},"pad":"${'x'.repeat(1000)}"`;
    const text = excerptText(raw);
    expect(text.length).toBeLessThanOrEqual(201);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('k-123');
    const value = excerptValue({ params: { token: 'tok-secret', note: 'Authorization: Bearer abc.def' } });
    expect(value).not.toContain('tok-secret');
    expect(value).not.toContain('abc.def');
  });
});
