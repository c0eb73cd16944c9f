import { describe, expect, it } from 'vitest';
import { isoTimestamp, typeName, VALUE_TYPES } from './value-types.js';

const parse = (oid: number, text: string) => VALUE_TYPES.getTypeParser(oid, 'text')(text);

describe('value types', () => {
  it('keeps bigint and numeric exact as strings', () => {
    expect(parse(20, '9007199254740993')).toBe('9007199254740993');
    expect(parse(1700, '12345678901234567890.000001')).toBe('12345678901234567890.000001');
  });

  it('maps small numbers, booleans and non-finite floats', () => {
    expect(parse(23, '-42')).toBe(-42);
    expect(parse(21, '7')).toBe(7);
    expect(parse(701, '0.1')).toBe(0.1);
    expect(parse(701, 'NaN')).toBe('NaN');
    expect(parse(700, 'Infinity')).toBe('Infinity');
    expect(parse(16, 't')).toBe(true);
    expect(parse(16, 'f')).toBe(false);
  });

  it('parses json and jsonb, encodes bytea as base64 (hex and escape formats)', () => {
    expect(parse(3802, '{"a": [1, null]}')).toEqual({ a: [1, null] });
    expect(parse(114, '"text"')).toBe('text');
    expect(parse(17, '\\x00ff')).toBe(Buffer.from([0, 255]).toString('base64'));
    expect(parse(17, 'a\\000\\\\')).toBe(Buffer.from([97, 0, 92]).toString('base64'));
  });

  it('writes timestamps as ISO 8601', () => {
    expect(isoTimestamp('2024-05-01 12:30:00.5+02')).toBe('2024-05-01T12:30:00.5+02:00');
    expect(isoTimestamp('2024-05-01 12:30:00+05:30')).toBe('2024-05-01T12:30:00+05:30');
    expect(isoTimestamp('1880-01-01 00:00:00+00:53:28')).toBe('1880-01-01T00:00:00+00:53:28');
    expect(isoTimestamp('2024-05-01 12:30:00')).toBe('2024-05-01T12:30:00');
    expect(isoTimestamp('infinity')).toBe('infinity');
    expect(isoTimestamp('0044-03-15 12:00:00+00 BC')).toBe('0044-03-15 12:00:00+00 BC');
    expect(parse(1184, '2024-05-01 12:30:00+00')).toBe('2024-05-01T12:30:00+00:00');
  });

  it('maps whole-hour offsets, with or without fractions, like any other offset', () => {
    expect(isoTimestamp('2024-01-01 00:01:00+00')).toBe('2024-01-01T00:01:00+00:00');
    expect(isoTimestamp('2024-01-01 00:01:00.000001-08')).toBe('2024-01-01T00:01:00.000001-08:00');
    expect(isoTimestamp('12024-01-01 00:01:00+00')).toBe('12024-01-01T00:01:00+00:00');
    // Near misses of the shape keep PostgreSQL's text.
    expect(isoTimestamp('2024-01-01 00:01:00.+00')).toBe('2024-01-01 00:01:00.+00');
    expect(isoTimestamp('2024-01-01 00:01:0x+00')).toBe('2024-01-01 00:01:0x+00');
    expect(isoTimestamp('2024-01-01 00:01:00 +00')).toBe('2024-01-01 00:01:00 +00');
    expect(isoTimestamp('2024-01-01 00:01:00.5x+00')).toBe('2024-01-01 00:01:00.5x+00');
  });

  it('parses arrays with their element mapping, NULLs and nesting', () => {
    expect(parse(1007, '{1,NULL,3}')).toEqual([1, null, 3]);
    expect(parse(1016, '{9007199254740993}')).toEqual(['9007199254740993']);
    expect(parse(1009, '{a,"b c",NULL,"NULL"}')).toEqual(['a', 'b c', null, 'NULL']);
    expect(parse(1007, '{{1,2},{3,4}}')).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(parse(3807, '{"{\\"k\\": 1}"}')).toEqual([{ k: 1 }]);
  });

  it('returns PostgreSQL text for every other type', () => {
    expect(parse(2950, '0b6f2b3c-0000-4000-8000-000000000000')).toBe('0b6f2b3c-0000-4000-8000-000000000000');
    expect(parse(1186, 'P1D')).toBe('P1D');
    expect(parse(600, '(1,2)')).toBe('(1,2)');
    expect(VALUE_TYPES.getTypeParser(23, 'binary')('x')).toBe('x');
  });

  it('names types', () => {
    expect(typeName(20)).toBe('bigint');
    expect(typeName(99999)).toBe('oid 99999');
  });
});
