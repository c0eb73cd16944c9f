import { describe, expect, it } from 'vitest';
import { isoTime } from './clock.js';

describe('isoTime', () => {
  it('gives what toISOString gives', () => {
    const samples = [
      0,
      1,
      999,
      Date.UTC(2026, 11, 7, 16, 40, 5, 7),
      Date.UTC(2026, 0, 1, 0, 0, 0, 90),
      Date.UTC(999, 5, 6, 7, 8, 9, 10),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      Date.UTC(-1, 0, 1),
      -62198755200000,
    ];
    // And a spread of ordinary instants (every field's one- and two-digit values).
    for (let t = Date.UTC(2020, 0, 1); t < Date.UTC(2030, 0, 1); t += 7_654_321_987) samples.push(t);
    for (const t of samples) expect(isoTime(new Date(t))).toBe(new Date(t).toISOString());
  });

  it('throws for an invalid date, as toISOString does', () => {
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
