/**
 * A session per call through node-postgres (imported here, on first use, from outside the
 * bundle): a new connection, or for a read-only call of the MCP server one kept from an earlier
 * call (pool.ts). The session ends when the call does; an abort or timeout of the call sends the
 * server a cancel request for the running statement and closes the socket, so nothing keeps
 * running in the database after ah has given up on it.
 */
import { connect as netConnect } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { Client, ClientConfig, QueryConfig } from 'pg';
import type { CommandContext } from '../../../catalog/descriptor.js';
import { AhError } from '../../../errors.js';
import { importModule } from '../../../platform/import-module.js';
import { type ConnectionConfig, type ConnectionInput, resolveConnection } from './connection-config.js';
import { isTlsError, mapError, sqlState, type Target } from './errors.js';
import { keep, poolKey, socketOf, take } from './pool.js';
import { openedStream, preferTls } from './prefer-tls.js';
import { type Attempt, tlsAttempts } from './tls.js';
import { VALUE_TYPES } from './value-types.js';

type PgModule = typeof import('pg');
type CursorClass = typeof import('pg-cursor');

let pgModule: Promise<PgModule> | undefined;
let cursorModule: Promise<CursorClass> | undefined;

const unwrap = <T>(m: unknown): T => ((m as { default?: T }).default ?? m) as T;

function loadPg(): Promise<PgModule> {
  pgModule ??= importModule('pg').then((m) => unwrap<PgModule>(m));
  return pgModule;
}

export function loadCursor(): Promise<CursorClass> {
  cursorModule ??= importModule('pg-cursor').then((m) => unwrap<CursorClass>(m));
  return cursorModule;
}

export interface Session {
  readonly client: Client;
  readonly target: Target;
  /** Rows as objects, values mapped by value-types.ts. */
  rows<T = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<T[]>;
  /** Maps a driver error of this session to an AhError (password scrubbed). */
  fail(error: unknown): AhError;
}

export interface SessionOptions {
  /** Every transaction of the session is READ ONLY (default_transaction_read_only, set at start-up). */
  readOnly: boolean;
  operation: string;
  /** A new connection even when a kept one would do (ping reports on connecting). */
  fresh?: boolean;
}

/** Sends a CancelRequest for a backend over a fresh socket (bounded to 2 s; errors ignored). */
function sendCancel(config: ConnectionConfig, pid: number, secretKey: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = config.host.startsWith('/')
      ? netConnect(`${config.host}/.s.PGSQL.${config.port}`)
      : netConnect({ host: config.host, port: config.port });
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, 2000);
    socket.once('connect', () => {
      const packet = Buffer.alloc(16);
      packet.writeInt32BE(16, 0);
      packet.writeInt32BE(80877102, 4);
      packet.writeInt32BE(pid, 8);
      packet.writeInt32BE(secretKey, 12);
      // The server closes the socket once it has the request.
      socket.end(packet);
    });
    socket.once('close', done);
    socket.once('error', done);
  });
}

function startupOptions(readOnly: boolean): string {
  const settings = ['DateStyle=ISO', 'IntervalStyle=iso_8601', 'extra_float_digits=3'];
  if (readOnly) settings.push('default_transaction_read_only=on');
  return settings.map((s) => `-c ${s}`).join(' ');
}

async function connectOnce(
  pg: PgModule,
  config: ConnectionConfig,
  ssl: Attempt,
  password: () => Promise<string>,
  ctx: CommandContext,
  readOnly: boolean,
): Promise<Client> {
  const remaining = Number.isFinite(ctx.deadline) ? Math.max(1, ctx.deadline - Date.now()) : config.connectTimeoutMs;
  const timeoutMs = Math.min(config.connectTimeoutMs, remaining);
  const started = Date.now();
  // prefer: TLS is settled here, and the driver gets the open socket in plain or TLS form (the
  // time this took counts against the same connect timeout).
  const stream =
    ssl !== false && 'negotiate' in ssl ? openedStream(await preferTls(config, ssl.negotiate, timeoutMs, ctx.signal)) : undefined;
  const clientConfig: ClientConfig = {
    host: config.host,
    port: config.port,
    user: config.user,
    database: config.database,
    password,
    ssl: stream === undefined ? (ssl as false | ConnectionOptions) : false,
    ...(stream === undefined ? {} : { stream: () => stream }),
    connectionTimeoutMillis: Math.max(1, timeoutMs - (Date.now() - started)),
    application_name: 'ah',
    options: startupOptions(readOnly),
    types: VALUE_TYPES as unknown as ClientConfig['types'],
    ...(config.statementTimeoutMs === null ? {} : { statement_timeout: config.statementTimeoutMs }),
  };
  const client = new pg.Client(clientConfig);
  // Errors after the call ended (the server going away) must not reach the process's error path.
  client.on('error', () => undefined);
  const onAbort = () => socketOf(client)?.destroy();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await client.connect();
    return client;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

async function connect(
  pg: PgModule,
  config: ConnectionConfig,
  password: () => Promise<string>,
  ctx: CommandContext,
  readOnly: boolean,
): Promise<Client> {
  const attempts = await tlsAttempts(config.sslmode, config.host, config.sslrootcert, config.sslrootcertExplicit);
  let lastError: unknown;
  for (const [index, ssl] of attempts.entries()) {
    try {
      return await connectOnce(pg, config, ssl, password, ctx, readOnly);
    } catch (error) {
      lastError = error;
      if (ctx.signal.aborted || index === attempts.length - 1) break;
      // prefer retries without TLS only when TLS itself failed; allow retries with TLS only when
      // the server refused the plain connection (pg_hba.conf).
      const retry = ssl === false ? sqlState(error) === '28000' : isTlsError(error);
      if (!retry) break;
    }
  }
  throw lastError;
}

async function closeClient(client: Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.end().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        socketOf(client)?.destroy();
        resolve();
      }, 1000);
    }),
  ]);
  clearTimeout(timer);
}

/** True for a failure of the connection itself (no SQLSTATE, not ours): a kept one may have died idle. */
function connectionLost(error: unknown): boolean {
  return !(error instanceof AhError) && sqlState(error) === null;
}

/**
 * Opens a session (or takes a kept one: pool.ts), runs `fn` in it, and closes it; a read-only
 * session of the MCP server is reset and kept for the next call instead.
 */
export async function withSession<T>(
  input: ConnectionInput,
  ctx: CommandContext,
  options: SessionOptions,
  fn: (session: Session) => Promise<T>,
): Promise<T> {
  const config = await resolveConnection(input, ctx);
  const target: Target = { host: config.host, port: config.port, user: config.user, database: config.database };
  let secret: string | null = null;
  let lookup: Promise<string | null> | undefined;
  const known = () => {
    lookup ??= config.password().then((value) => {
      if (value !== null) secret = value;
      return value;
    });
    return lookup;
  };
  const password = async () => {
    const value = await known();
    if (value === null) {
      throw new AhError({
        code: 'POSTGRES_AUTH_FAILED',
        message: `the server asks for a password for role '${config.user}' and none was given`,
        cause: 'no credentials.database record, password_env, service password, PGPASSWORD or matching ~/.pgpass line',
        hint: 'Pass credentials.database (a postgres vault record), or on the CLI --password-env VAR.',
        domain: 'postgres',
        operation: options.operation,
      });
    }
    return value;
  };
  const fail = (error: unknown): AhError => {
    if (ctx.signal.aborted && ctx.signal.reason instanceof AhError) return ctx.signal.reason;
    return mapError(error, target, options.operation, secret);
  };
  ctx.signal.throwIfAborted();
  const pg = await loadPg();
  const key = options.readOnly && ctx.transport === 'mcp' ? poolKey(config, await known()) : undefined;
  const open = async (): Promise<Client> => {
    try {
      return await connect(pg, config, password, ctx, options.readOnly);
    } catch (error) {
      throw fail(error);
    }
  };
  const run = async (client: Client): Promise<T> => {
    const backend = client as unknown as { processID: number | null; secretKey: number | null };
    const onAbort = () => {
      if (backend.processID !== null && backend.secretKey !== null) void sendCancel(config, backend.processID, backend.secretKey);
      socketOf(client)?.destroy();
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const session: Session = {
      client,
      target,
      async rows<R>(text: string, values?: readonly unknown[]) {
        // Always the extended protocol: one statement per call, never a ;-separated script.
        const config = { text, values: (values ?? []) as unknown[], queryMode: 'extended' };
        const result = await client.query(config as QueryConfig);
        return result.rows as R[];
      },
      fail,
    };
    try {
      return await fn(session);
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  };
  const kept = key === undefined || options.fresh === true ? undefined : await take(key);
  let client: Client | undefined = kept ?? (await open());
  let result: T;
  try {
    try {
      result = await run(client);
    } catch (error) {
      if (kept === undefined || ctx.signal.aborted || !connectionLost(error)) throw error;
      // The kept connection died while idle: once more on a new one (the session only reads).
      socketOf(client)?.destroy();
      // Undefined while the new one opens: if that fails there is nothing left to close.
      client = undefined;
      client = await open();
      result = await run(client);
    }
  } catch (error) {
    if (client !== undefined) {
      // A broken connection cannot say goodbye: only the socket is left to close.
      if (ctx.signal.aborted || connectionLost(error)) socketOf(client)?.destroy();
      else await closeClient(client);
    }
    throw fail(error);
  }
  if (ctx.signal.aborted) socketOf(client)?.destroy();
  else if (key !== undefined) keep(key, client);
  else await closeClient(client);
  return result;
}
