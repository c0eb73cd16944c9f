/**
 * sslmode=prefer on one connection, as libpq does it: send an SSLRequest, then start TLS on the
 * same socket when the server answers 'S', or go on in plain text on it when it answers 'N'. The
 * driver can only fail on 'N' and dial again, which costs every call against a server without TLS
 * a second TCP connection and a second server process (about a third of a 1-row query's time).
 * The socket returned is handed to the driver already open (see `openedStream`).
 */
import { connect as netConnect, type Socket } from 'node:net';
import { type ConnectionOptions, connect as tlsConnect } from 'node:tls';

/** SSLRequest: length 8, then the request code 80877103. */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);
const S = 0x53;
const N = 0x4e;

export interface Endpoint {
  host: string;
  port: number;
}

function dial(endpoint: Endpoint): Socket {
  // A host starting with '/' is a Unix-socket directory (libpq's rule).
  return endpoint.host.startsWith('/')
    ? netConnect(`${endpoint.host}/.s.PGSQL.${endpoint.port}`)
    : netConnect({ host: endpoint.host, port: endpoint.port });
}

/** The server's one-byte answer to the SSLRequest, on a freshly dialled socket. */
function askForTls(socket: Socket): Promise<number> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      cleanup();
      // Nothing may follow the answer before we speak again (a server that sent more is not PostgreSQL).
      if (chunk.length !== 1) reject(new Error('There was an error establishing an SSL connection'));
      else resolve(chunk[0] as number);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      cleanup();
      reject(Object.assign(new Error('the server closed the connection during SSL negotiation'), { code: 'ECONNRESET' }));
    };
    socket.on('data', onData);
    socket.once('error', onError);
    socket.once('close', onClose);
    socket.setNoDelay(true);
    socket.write(SSL_REQUEST);
  });
}

function startTls(socket: Socket, options: ConnectionOptions, host: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const tls = tlsConnect({ ...options, socket, ...(host.startsWith('/') ? {} : { host }) });
    const onError = (error: Error) => reject(error);
    tls.once('error', onError);
    tls.once('secureConnect', () => {
      tls.off('error', onError);
      resolve(tls);
    });
  });
}

/**
 * Opens a connection and settles TLS the prefer way. Rejects with the socket error, a TLS error
 * (the caller then tries plain text on a new connection, as libpq does when the handshake fails),
 * or "timeout expired" after `timeoutMs`; an abort destroys the socket and rejects.
 */
export function preferTls(endpoint: Endpoint, options: ConnectionOptions, timeoutMs: number, signal: AbortSignal): Promise<Socket> {
  const socket = dial(endpoint);
  let current: Socket = socket;
  let stop: (error: Error) => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => {
    stop = (error: Error) => {
      current.destroy();
      socket.destroy();
      reject(error);
    };
  });
  // Only the race below is awaited; this keeps the loser's rejection from going unhandled.
  stopped.catch(() => undefined);
  const timer = setTimeout(() => stop(new Error('Connection terminated due to connection timeout')), timeoutMs);
  const onAbort = () => stop(new Error('the call was aborted while connecting'));
  signal.addEventListener('abort', onAbort, { once: true });
  const negotiated = (async () => {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.removeAllListeners('error');
    // A late socket error (the server going away) must not become an uncaught exception before
    // the driver, which reports errors itself, has attached its own listener.
    socket.on('error', () => undefined);
    const answer = await askForTls(socket);
    if (answer === N) {
      // Held until the driver listens (openedStream resumes it).
      socket.pause();
      return socket;
    }
    if (answer !== S) throw new Error('There was an error establishing an SSL connection');
    current = await startTls(socket, options, endpoint.host);
    current.on('error', () => undefined);
    return current;
  })().catch((error: unknown) => {
    current.destroy();
    socket.destroy();
    throw error;
  });
  return Promise.race([negotiated, stopped]).finally(() => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  });
}

/**
 * An open socket in the shape the driver expects of a new one: it calls connect() and waits for
 * 'connect', so connect() here only announces the connection that already exists.
 */
export function openedStream(socket: Socket): Socket {
  socket.connect = (() => {
    process.nextTick(() => {
      socket.resume();
      socket.emit('connect');
    });
    return socket;
  }) as unknown as Socket['connect'];
  return socket;
}
