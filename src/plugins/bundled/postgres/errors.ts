/**
 * Maps driver, socket and server failures to stable codes. Messages name the host, port, role and
 * database (never a password); causes carry the server's SQLSTATE, detail and hint.
 */
import { AhError } from '../../../errors.js';

export interface Target {
  host: string;
  port: number;
  user: string;
  database: string;
}

interface DriverError {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  hint?: unknown;
  position?: unknown;
  severity?: unknown;
}

const where = (t: Target) => (t.host.startsWith('/') ? `${t.host}/.s.PGSQL.${t.port}` : `${t.host}:${t.port}`);

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

export function isTlsError(error: unknown): boolean {
  const e = error as DriverError;
  const message = typeof e?.message === 'string' ? e.message : '';
  return (
    (typeof e?.code === 'string' && (TLS_CODES.has(e.code) || e.code.startsWith('ERR_SSL') || e.code.startsWith('ERR_TLS'))) ||
    /does not support SSL|SSL connection|certificate/i.test(message)
  );
}

/** A server SQLSTATE (five characters), or null for client-side failures. */
export function sqlState(error: unknown): string | null {
  const code = (error as DriverError)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

function serverCause(error: DriverError, state: string): string {
  const parts = [`SQLSTATE ${state}: ${String(error.message)}`];
  if (typeof error.detail === 'string' && error.detail) parts.push(`detail: ${error.detail}`);
  if (typeof error.hint === 'string' && error.hint) parts.push(`hint: ${error.hint}`);
  if (typeof error.position === 'string' && error.position) parts.push(`at character ${error.position}`);
  return parts.join('; ');
}

/** Removes every occurrence of a secret from a text (defence in depth: drivers should never echo one). */
export function scrub(text: string, secret: string | null): string {
  return secret && secret.length > 0 ? text.split(secret).join('***') : text;
}

export function mapError(error: unknown, target: Target, operation: string, secret: string | null = null): AhError {
  if (error instanceof AhError) return error;
  // Node's happy-eyeballs connect fails with an AggregateError of one error per address.
  const inner = (error as { errors?: unknown[] } | null)?.errors;
  const e = (
    (error as DriverError | null)?.code === undefined && Array.isArray(inner) && inner.length > 0 ? inner[0] : (error ?? {})
  ) as DriverError;
  const text = scrub(typeof e.message === 'string' ? e.message : String(error), secret);
  const make = (code: string, message: string, cause: string, hint?: string, retryable = false) =>
    new AhError({ code, message: scrub(message, secret), cause: scrub(cause, secret), hint, retryable, domain: 'postgres', operation });
  const state = sqlState(error);
  if (state !== null) {
    const cause = scrub(serverCause(e, state), secret);
    switch (state) {
      case '28P01':
        return make(
          'POSTGRES_AUTH_FAILED',
          `password authentication failed for role '${target.user}'`,
          cause,
          'Check the password (credentials.database record, password_env, PGPASSWORD or ~/.pgpass).',
        );
      case '28000':
        return make(
          'POSTGRES_AUTH_FAILED',
          `the server refused role '${target.user}' (pg_hba.conf)`,
          cause,
          'The server allows no login for this role, database, address and sslmode; check pg_hba.conf or try another sslmode.',
        );
      case '3D000':
        return make(
          'POSTGRES_DATABASE_NOT_FOUND',
          `database '${target.database}' does not exist`,
          cause,
          "List the databases with 'ah postgres databases'.",
        );
      case '25006':
        return make(
          'POSTGRES_QUERY_NOT_READ_ONLY',
          'the statement writes, and query runs in a read-only transaction',
          cause,
          'Use postgres exec (with yes) for statements that change data.',
        );
      case '57014':
        if (/statement timeout/i.test(text)) {
          return make(
            'POSTGRES_STATEMENT_TIMEOUT',
            'the statement ran past statement_timeout',
            cause,
            'Raise statement_timeout_ms or narrow the query.',
            true,
          );
        }
        return make('POSTGRES_QUERY_CANCELLED', 'the server cancelled the statement', cause, undefined, true);
      case '53300':
        return make('POSTGRES_CONNECTION_FAILED', 'the server has no free connection slots', cause, 'Retry later.', true);
      case '57P03':
        return make('POSTGRES_CONNECTION_FAILED', 'the server is starting up or shutting down', cause, 'Retry in a moment.', true);
      default:
        return make('POSTGRES_QUERY_FAILED', text.split('\n')[0] as string, cause);
    }
  }
  if (
    typeof e.code === 'string' &&
    ['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'ENOENT', 'EAI_AGAIN'].includes(e.code)
  ) {
    return make(
      'POSTGRES_CONNECTION_FAILED',
      `cannot connect to ${where(target)}`,
      `${e.code}: ${text}`,
      'Is the server running and accepting TCP connections on that host and port?',
      true,
    );
  }
  if (e.code === 'ENOTFOUND') {
    return make('POSTGRES_CONNECTION_FAILED', `host '${target.host}' is not known`, `${e.code}: ${text}`, 'Check the host name.');
  }
  if (isTlsError(error)) {
    return make(
      'POSTGRES_TLS_FAILED',
      `TLS with ${where(target)} failed`,
      text,
      'Check sslmode, the CA file (PGSSLROOTCERT or ~/.postgresql/root.crt) and the name in the server certificate.',
    );
  }
  if (/timeout/i.test(text)) {
    return make(
      'POSTGRES_CONNECT_TIMEOUT',
      `no connection to ${where(target)} within connect_timeout_secs`,
      text,
      'Check the address, or raise connect_timeout_secs.',
      true,
    );
  }
  if (/terminated|closed|ended/i.test(text)) {
    return make('POSTGRES_CONNECTION_FAILED', `the connection to ${where(target)} closed unexpectedly`, text, undefined, true);
  }
  return make('POSTGRES_QUERY_FAILED', `the PostgreSQL call failed: ${text.split('\n')[0]}`, text);
}
