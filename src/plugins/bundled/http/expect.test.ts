import { describe, expect, it } from 'vitest';
import { evaluate, parseJsonCheck, statusMatches } from './expect.js';
import { lookup } from './json-path.js';
import { safeExec } from './safe-regex.js';

const res = (body: unknown, extra: Partial<{ status: number; truncated: boolean; headers: Record<string, string> }> = {}) => ({
  status: 200,
  headers: {},
  body: typeof body === 'string' ? body : JSON.stringify(body),
  truncated: false,
  ...extra,
});

describe('status expectations', () => {
  it('takes a code, a class or an inclusive range', () => {
    expect(statusMatches(200, 200)).toBe(true);
    expect(statusMatches('201', 200)).toBe(false);
    expect(statusMatches('4xx', 404)).toBe(true);
    expect(statusMatches('4xx', 500)).toBe(false);
    expect(statusMatches('200-204', 204)).toBe(true);
    expect(statusMatches('200-204', 205)).toBe(false);
  });
});

describe('json paths and checks', () => {
  const doc = { data: { user: { id: 7, name: 'Ann', tags: ['a', 'b'] } }, items: [{ id: 1 }, { id: '2' }], nil: null };
  it('looks up dot and bracket paths', () => {
    expect(lookup(doc, 'data.user.id')).toEqual({ found: true, value: 7 });
    expect(lookup(doc, 'items[1].id')).toEqual({ found: true, value: '2' });
    expect(lookup(doc, 'items.0.id')).toEqual({ found: true, value: 1 });
    expect(lookup(doc, '$.nil')).toEqual({ found: true, value: null });
    expect(lookup(doc, 'items.5')).toEqual({ found: false, value: undefined });
    expect(lookup(doc, 'data.user.name.x')).toEqual({ found: false, value: undefined });
    expect(lookup(doc, '')).toEqual({ found: true, value: doc });
  });
  it('parses path:op[:value] and evaluates eq, contains, exists and match', () => {
    const checks = [
      'data.user.id:eq:7',
      'items.1.id:eq:2',
      'data.user.name:eq:Ann',
      'data.user.tags:contains:b',
      'data.user.name:contains:nn',
      'data:contains:user',
      'data.user:exists',
      'nope:exists:false',
      'data.user.name:match:^A.n$',
      'data.user:eq:{"id":7,"name":"Ann","tags":["a","b"]}',
    ];
    expect(evaluate({ json: checks.map(parseJsonCheck) }, res(doc), { reveal: true, deadline: Date.now() + 5000 }).failures).toEqual([]);
    const bad = ['data.user.id:eq:8', 'data.user.tags:contains:z', 'data.user:exists:false', 'missing:eq:1', 'data.user.name:match:^x'];
    const verdict = evaluate({ json: bad.map(parseJsonCheck) }, res(doc), { reveal: true, deadline: Date.now() + 5000 });
    expect(verdict).toMatchObject({ total: 5, passed: 0, failed: 5 });
    expect(verdict.failures[0]).toBe("json 'data.user.id': expected 8, got 7");
    const hidden = evaluate({ json: bad.map(parseJsonCheck) }, res(doc), { reveal: false, deadline: Date.now() + 5000 });
    expect(hidden.failures.join(' ')).not.toMatch(/Ann|\b7\b|\b8\b/);
  });
  it('fails body checks on a truncated body and JSON checks on a non-JSON body', () => {
    expect(
      evaluate({ status: 200, bodyContains: ['a'] }, res('abc', { truncated: true }), { reveal: true, deadline: Infinity }).failures,
    ).toEqual(['body: truncated at max_response_bytes, body checks need the whole body']);
    expect(evaluate({ json: [parseJsonCheck('a:exists')] }, res('<html>'), { reveal: true, deadline: Infinity }).failures).toEqual([
      "json 'a': the body is not JSON",
    ]);
  });
  it('stops a catastrophic regex instead of pinning the event loop', () => {
    expect(() => safeExec('^(a+)+$', `${'a'.repeat(40)}b`, Date.now() + 200)).toThrow(/ran longer than/);
    expect(safeExec('(b)(c)?', 'abd', Infinity)).toEqual(['b', 'b', null]);
    expect(() => safeExec('(', 'x', Infinity)).toThrow('invalid regular expression');
  });
});
