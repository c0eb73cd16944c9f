/**
 * sslmode → the TLS options of each connection attempt, as libpq defines the six modes:
 * disable (plain only), allow (plain, then TLS if the server refuses plain), prefer (TLS, or
 * plain on the same connection if the server has no TLS, as libpq does), require (TLS,
 * certificate not checked), verify-ca (TLS, the chain must lead to the root certificate),
 * verify-full (verify-ca plus the host name must match the certificate). The root certificate is PGSSLROOTCERT or the service's sslrootcert, else
 * ~/.postgresql/root.crt, else the system's trusted CAs ("system" asks for them explicitly).
 */
import { readFile } from 'node:fs/promises';
import { checkServerIdentity, type ConnectionOptions } from 'node:tls';
import { AhError } from '../../../errors.js';
import type { SslMode } from './inputs.js';

/** Plain text, TLS, or (`negotiate`) TLS if the server offers it and plain text on the same connection if not. */
export type Attempt = false | ConnectionOptions | { negotiate: ConnectionOptions };

async function rootCertificates(path: string | null, explicit: boolean): Promise<string | undefined> {
  if (path === null || path === 'system') return undefined;
  try {
    return await readFile(path, 'utf8');
  } catch {
    if (!explicit) return undefined;
    throw new AhError({
      code: 'POSTGRES_TLS_FAILED',
      message: 'the root certificate file cannot be read',
      cause: `sslrootcert points at ${path}`,
      hint: 'Point PGSSLROOTCERT (or the service sslrootcert) at a PEM file of the CA that signed the server certificate.',
      domain: 'postgres',
    });
  }
}

/** The attempts for a mode, in order (a second attempt runs only when the first fails as libpq would retry). */
export async function tlsAttempts(mode: SslMode, host: string, rootCert: string | null, rootCertExplicit: boolean): Promise<Attempt[]> {
  const unverified: ConnectionOptions = { rejectUnauthorized: false };
  switch (mode) {
    case 'disable':
      return [false];
    case 'allow':
      return [false, unverified];
    case 'prefer':
      // Plain text on a new connection only when the TLS handshake itself fails.
      return [{ negotiate: unverified }, false];
    case 'require':
      return [unverified];
    case 'verify-ca':
    case 'verify-full': {
      const ca = await rootCertificates(rootCert, rootCertExplicit);
      const options: ConnectionOptions = { rejectUnauthorized: true, ...(ca === undefined ? {} : { ca }) };
      // The driver hands the TLS layer an open socket, where Node would check the certificate
      // against "localhost" for an IP host: the check is made here against the host we dialled.
      options.checkServerIdentity = mode === 'verify-full' ? (_name, cert) => checkServerIdentity(host, cert) : () => undefined;
      if (mode === 'verify-full' && !/^[\d.]+$|:/.test(host)) options.servername = host;
      return [options];
    }
  }
}
