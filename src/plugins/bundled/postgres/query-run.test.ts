import { describe, expect, it } from 'vitest';
import { uniqueNames } from './query-run.js';

describe('column names', () => {
  it('makes duplicates unique without clashing with real names', () => {
    expect(uniqueNames(['a', 'b', 'a', 'a'])).toEqual(['a', 'b', 'a_2', 'a_3']);
    expect(uniqueNames(['a', 'a_2', 'a'])).toEqual(['a', 'a_2', 'a_2_']);
  });
});
