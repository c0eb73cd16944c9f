import { describe, expect, it } from 'vitest';
import { assertReadOnlyStatement, firstKeyword } from './read-only.js';

describe('read-only keyword check', () => {
  it('finds the first keyword past whitespace, comments and parentheses', () => {
    expect(firstKeyword('  SELECT 1')).toBe('select');
    expect(firstKeyword('-- note\n/* a /* nested */ b */ ((values (1)))')).toBe('values');
    expect(firstKeyword('With x as (select 1) table x')).toBe('with');
    expect(firstKeyword('/* unterminated')).toBe('');
  });

  it('lets SELECT, WITH, TABLE and VALUES through and refuses the rest with its code', () => {
    for (const sql of ['select 1', 'with a as (select 1) select * from a', 'table t', 'values (1)'])
      expect(() => assertReadOnlyStatement(sql)).not.toThrow();
    for (const sql of [
      'insert into t values (1)',
      'set transaction read write',
      'copy t to stdout',
      'call p()',
      '',
      'do $$ begin end $$',
    ]) {
      expect(() => assertReadOnlyStatement(sql)).toThrow(expect.objectContaining({ code: 'POSTGRES_QUERY_NOT_READ_ONLY' }));
    }
  });
});
