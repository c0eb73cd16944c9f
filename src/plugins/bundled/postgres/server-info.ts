/** The identity row ping and info share: who and where this session is. */
import { Nullable, Type } from '../../../catalog/schema.js';

export const IDENTITY_FIELDS = {
  current_database: Type.String(),
  current_schema: Nullable(Type.String()),
  current_user: Type.String(),
  session_user: Type.String(),
  server_version: Type.String(),
  server_encoding: Type.String(),
  inet_server_addr: Nullable(Type.String({ description: 'Server address of this connection (null over a Unix socket)' })),
  inet_server_port: Nullable(Type.Integer()),
  ssl: Type.Boolean({ description: 'Whether this connection uses TLS' }),
};

export const IDENTITY_SQL = `select current_database() as current_database, current_schema() as current_schema,
  current_user as current_user, session_user as session_user,
  current_setting('server_version') as server_version, current_setting('server_encoding') as server_encoding,
  host(inet_server_addr()) as inet_server_addr, inet_server_port() as inet_server_port,
  coalesce((select s.ssl from pg_stat_ssl s where s.pid = pg_backend_pid()), false) as ssl`;

export function renderIdentity(o: Record<string, unknown>): string {
  const where = o.inet_server_addr === null ? 'Unix socket' : `${String(o.inet_server_addr)}:${String(o.inet_server_port)}`;
  return [
    `${String(o.current_user)}@${String(o.current_database)} on ${where}${o.ssl ? ' (TLS)' : ''}`,
    `PostgreSQL ${String(o.server_version)}, encoding ${String(o.server_encoding)}, schema ${String(o.current_schema ?? '(none)')}`,
  ].join('\n');
}
