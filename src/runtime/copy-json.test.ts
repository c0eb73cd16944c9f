import { describe, expect, it } from 'vitest';
import { copyJson } from './invoke.js';

describe('copyJson', () => {
  it('copies JSON data deeply', () => {
    const value = { a: [1, { b: 'x' }], c: null, d: true, e: { f: { g: 2.5 } } };
    const copy = copyJson(value) as typeof value;
    expect(copy).toEqual(value);
    expect(copy).not.toBe(value);
    expect(copy.a).not.toBe(value.a);
    expect(copy.e.f).not.toBe(value.e.f);
  });

  it('keeps an own __proto__ key a plain property', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "path": "a"}') as Record<string, unknown>;
    const copy = copyJson(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'path']);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
