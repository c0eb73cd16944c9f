/**
 * The connection inputs every operational postgres command takes, the shared effects blocks and
 * the `database` credential slot. Only schema values live here: nothing heavy is imported, so the
 * descriptors stay cheap to load (the `pg` driver is imported when a command runs).
 */
import type { CredentialSlot } from '../../../catalog/descriptor.js';
import type { Effects } from '../../../catalog/effects.js';
import { cliOnly, Type } from '../../../catalog/schema.js';

export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

export const CONNECTION_INPUTS = {
  host: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'Host name or IP, or a Unix socket directory (starts with /)' }),
  ),
  port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'Server port (default 5432)' })),
  database: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Database name (default: the user name)' })),
  user: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'Role to connect as (default: PGUSER, else the OS user)' }),
  ),
  service: Type.Optional(
    Type.String({ minLength: 1, maxLength: 256, description: 'libpq service file section (PGSERVICEFILE or ~/.pg_service.conf)' }),
  ),
  sslmode: Type.Optional(
    Type.Unsafe<SslMode>({
      type: 'string',
      enum: [...SSL_MODES],
      description: 'libpq TLS mode (default prefer)',
    }),
  ),
  password_env: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 256,
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      description: 'Environment variable holding the password (CLI only)',
      ...cliOnly('Over MCP pass the record id of a postgres secret as credentials.database; the server resolves the password.'),
    }),
  ),
  connect_timeout_secs: Type.Integer({ minimum: 1, maximum: 3600, default: 10, description: 'Connect timeout in seconds' }),
  statement_timeout_ms: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 86_400_000, description: 'Server-side statement_timeout in milliseconds' }),
  ),
};

export const SQL_INPUTS = {
  sql: Type.Optional(Type.String({ minLength: 1, maxLength: 1_048_576, description: 'SQL text (give sql or file, not both)' })),
  file: Type.Optional(
    Type.String({ minLength: 1, maxLength: 4096, description: 'File holding the SQL, relative to the working directory (at most 1 MiB)' }),
  ),
};

export const DATABASE_SLOT: CredentialSlot = {
  name: 'database',
  acceptedKinds: ['postgres'],
  required: false,
  description:
    'A postgres record (host, user, password; optional port, database, sslmode). Its fields fill connection inputs the call leaves unset.',
};

/** Commands that only read catalog views or statistics. */
export const READ_EFFECTS: Effects = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: true,
  effects: ['network_read', 'external_read'],
  risk: 'low',
  impact: 'Connects to the PostgreSQL server and reads catalog or statistics views; changes nothing.',
  reversibility: 'yes',
};

/** HTTP rule: a call needs an explicit cwd only when it names a relative SQL file. */
export function statelessUnlessRelativeFile(input: Record<string, unknown>): boolean {
  const file = input.file;
  return typeof file !== 'string' || file.startsWith('/') || /^[A-Za-z]:[\\/]/.test(file);
}

export const CONNECTION_NOTE =
  'Connection settings come from the inputs, then the credentials.database record, then the service file, then PG* environment variables; the password from the record, password_env (CLI), the service file, PGPASSWORD, then ~/.pgpass.';
