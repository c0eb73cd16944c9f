import { describe, expect, it } from 'vitest';
import { mapError, scrub } from './errors.js';

const target = { host: '127.0.0.1', port: 5432, user: 'app', database: 'appdb' };

describe('error mapping', () => {
  it('maps SQLSTATEs and socket errors to stable codes', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ code: '28P01', message: 'password authentication failed for user "app"' }, 'POSTGRES_AUTH_FAILED'],
      [{ code: '3D000', message: 'database "x" does not exist' }, 'POSTGRES_DATABASE_NOT_FOUND'],
      [{ code: '25006', message: 'cannot execute INSERT in a read-only transaction' }, 'POSTGRES_QUERY_NOT_READ_ONLY'],
      [{ code: '57014', message: 'canceling statement due to statement timeout' }, 'POSTGRES_STATEMENT_TIMEOUT'],
      [{ code: '42P01', message: 'relation "x" does not exist' }, 'POSTGRES_QUERY_FAILED'],
      [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }, 'POSTGRES_CONNECTION_FAILED'],
      [{ code: 'ERR_TLS_CERT_ALTNAME_INVALID', message: "Hostname/IP does not match certificate's altnames" }, 'POSTGRES_TLS_FAILED'],
      [{ message: 'The server does not support SSL connections' }, 'POSTGRES_TLS_FAILED'],
      [{ message: 'Connection terminated due to connection timeout' }, 'POSTGRES_CONNECT_TIMEOUT'],
    ];
    const aggregate = new AggregateError(
      [Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })],
      'all failed',
    );
    expect(mapError(aggregate, target, 'postgres.ping').code).toBe('POSTGRES_CONNECTION_FAILED');
    for (const [error, code] of cases)
      expect(mapError(Object.assign(new Error(String(error.message)), error), target, 'postgres.ping').code).toBe(code);
  });

  it('never lets a known secret through', () => {
    const error = mapError(
      Object.assign(new Error('bad value s3cret!'), { code: '22023', detail: 'the s3cret! again' }),
      target,
      'op',
      's3cret!',
    );
    expect(`${error.message} ${error.detail}`).not.toContain('s3cret!');
    expect(scrub('abc', null)).toBe('abc');
  });
});
