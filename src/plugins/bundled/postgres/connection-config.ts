/**
 * Resolves where and how to connect, the way libpq does, without reading process.env: explicit
 * inputs first, then the credentials.database record, then the service file, then the PG*
 * variables of the call's environment, then defaults. The password: the record, password_env
 * (CLI only), the service file, PGPASSWORD, then the password file. The password never leaves
 * this object except into the driver.
 */
import { join } from 'node:path';
import type { CommandContext } from '../../../catalog/descriptor.js';
import { AhError } from '../../../errors.js';
import { osUserName } from '../../../platform/processes.js';
import { SSL_MODES, type SslMode } from './inputs.js';
import { pgpassPassword } from './pgpass.js';
import { loadService, type ServiceValues } from './service-file.js';

export interface ConnectionInput {
  host?: string | undefined;
  port?: number | undefined;
  database?: string | undefined;
  user?: string | undefined;
  service?: string | undefined;
  sslmode?: SslMode | undefined;
  password_env?: string | undefined;
  connect_timeout_secs?: number | undefined;
  statement_timeout_ms?: number | undefined;
}

export interface ConnectionConfig {
  host: string;
  port: number;
  database: string;
  user: string;
  sslmode: SslMode;
  /** CA file for verify-ca / verify-full (PGSSLROOTCERT, the service's sslrootcert, ~/.postgresql/root.crt). */
  sslrootcert: string | null;
  /** Whether sslrootcert was named (a missing named file is an error; the default file is optional). */
  sslrootcertExplicit: boolean;
  connectTimeoutMs: number;
  statementTimeoutMs: number | null;
  /** Looked up when the server asks for one, or by the MCP server to key a kept connection (pool.ts). */
  password: () => Promise<string | null>;
}

type Ctx = Pick<CommandContext, 'env' | 'credentials'>;

function invalid(message: string, hint?: string): AhError {
  return new AhError({ code: 'INVALID_ARGUMENT', message, hint, domain: 'postgres' });
}

function parsePort(raw: string | undefined, from: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw invalid(`${from} is not a valid port`, 'Use a number from 1 to 65535.');
  return port;
}

function parseSslMode(raw: string | undefined, from: string): SslMode | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!(SSL_MODES as readonly string[]).includes(raw)) throw invalid(`${from} is not an sslmode`, `Use one of ${SSL_MODES.join(', ')}.`);
  return raw as SslMode;
}

function osUser(env: Ctx['env']): string {
  const fromEnv = env.USER || env.LOGNAME || env.USERNAME;
  if (fromEnv) return fromEnv;
  return osUserName() ?? 'postgres';
}

export async function resolveConnection(input: ConnectionInput, ctx: Ctx): Promise<ConnectionConfig> {
  const env = ctx.env;
  const home = env.HOME || env.USERPROFILE || null;
  const record = ctx.credentials.database?.values ?? {};
  if (input.password_env !== undefined && ctx.credentials.database) {
    throw invalid('password_env cannot be combined with credentials.database', 'Give the password one way.');
  }
  const serviceName = input.service ?? env.PGSERVICE;
  const service: ServiceValues = serviceName ? await loadService(serviceName, env, home) : {};
  const pick = (explicit: string | undefined, recordKey: string, serviceKey: string, envKey: string) =>
    explicit ?? (record[recordKey] || undefined) ?? (service[serviceKey] || undefined) ?? (env[envKey] || undefined);

  const host = pick(input.host, 'host', 'host', 'PGHOST') ?? 'localhost';
  const port =
    input.port ??
    parsePort(record.port, 'the credential record port') ??
    parsePort(service.port, `service '${serviceName}' port`) ??
    parsePort(env.PGPORT, 'PGPORT') ??
    5432;
  const user = pick(input.user, 'user', 'user', 'PGUSER') ?? osUser(env);
  const database = pick(input.database, 'database', 'dbname', 'PGDATABASE') ?? user;
  const sslmode =
    input.sslmode ??
    parseSslMode(record.sslmode, 'the credential record sslmode') ??
    parseSslMode(service.sslmode, `service '${serviceName}' sslmode`) ??
    parseSslMode(env.PGSSLMODE, 'PGSSLMODE') ??
    'prefer';
  const namedRootCert = service.sslrootcert || env.PGSSLROOTCERT || null;
  const rootCert = namedRootCert ?? (home ? join(home, '.postgresql', 'root.crt') : null);

  const passwordEnv = input.password_env;
  let passwordFromEnvVar: string | undefined;
  if (passwordEnv !== undefined) {
    passwordFromEnvVar = env[passwordEnv];
    if (passwordFromEnvVar === undefined || passwordFromEnvVar === '') {
      throw invalid(`the environment variable named by password_env is unset or empty`, `Export ${passwordEnv} before running ah.`);
    }
  }
  let cached: Promise<string | null> | undefined;
  const password = () => {
    cached ??= (async () => {
      if (record.password) return record.password;
      if (passwordFromEnvVar !== undefined) return passwordFromEnvVar;
      if (service.password) return service.password;
      if (env.PGPASSWORD) return env.PGPASSWORD;
      return pgpassPassword({ host, port, database, user }, env, home);
    })();
    return cached;
  };
  return {
    host,
    port,
    database,
    user,
    sslmode,
    sslrootcert: rootCert,
    sslrootcertExplicit: namedRootCert !== null,
    connectTimeoutMs: (input.connect_timeout_secs ?? (Number(service.connect_timeout || env.PGCONNECT_TIMEOUT) || 10)) * 1000,
    statementTimeoutMs: input.statement_timeout_ms ?? null,
    password,
  };
}
