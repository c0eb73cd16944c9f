/**
 * Which OS user owns the other end of a loopback TCP connection. Binding 127.0.0.1 keeps other
 * machines out, not other users of this one; the HTTP server serves only connections whose
 * client socket belongs to its own user.
 *
 * Linux: the kernel lists every TCP socket of the network namespace with its owner's uid in
 * /proc/net/tcp (IPv4) and /proc/net/tcp6. The client's socket is the row whose local address is
 * the connection's remote end and whose remote address is our end. One read per connection.
 * Other platforms: no check is possible without a native addon (Windows would need
 * GetExtendedTcpTable and the owning process's token; macOS has no per-socket owner API for TCP
 * without libproc), so the answer there is 'unchecked'.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { isIPv4, type Socket } from 'node:net';
import { endianness } from 'node:os';

type PeerVerdict = { kind: 'owner' } | { kind: 'other-user'; uid: number } | { kind: 'unknown'; reason: string } | { kind: 'unchecked' };

const littleEndian = endianness() === 'LE';

function hexWord(bytes: Buffer, offset: number): string {
  const word = littleEndian ? bytes.readUInt32LE(offset) : bytes.readUInt32BE(offset);
  return word.toString(16).toUpperCase().padStart(8, '0');
}

function ipv4Bytes(address: string): Buffer {
  return Buffer.from(address.split('.').map(Number));
}

/** IPv6 text (with an embedded IPv4 tail allowed) to its 16 bytes; undefined when not parseable. */
function ipv6Bytes(address: string): Buffer | undefined {
  let text = address;
  let tail: Buffer | undefined;
  const lastColon = text.lastIndexOf(':');
  if (isIPv4(text.slice(lastColon + 1))) {
    tail = ipv4Bytes(text.slice(lastColon + 1));
    text = `${text.slice(0, lastColon)}:0:0`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(Math.max(0, fill)).fill('0'), ...right];
  if (groups.length !== 8) return undefined;
  const bytes = Buffer.alloc(16);
  for (const [i, g] of groups.entries()) bytes.writeUInt16BE(Number.parseInt(g, 16) & 0xffff, i * 2);
  if (tail) tail.copy(bytes, 12);
  return bytes;
}

/** An address:port as /proc/net/tcp prints it (IPv4 rows) or /proc/net/tcp6 (IPv6 rows). */
function procEndpoint(address: string, port: number, family: 4 | 6): string | undefined {
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  if (family === 4) {
    const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
    if (!isIPv4(v4)) return undefined;
    return `${hexWord(ipv4Bytes(v4), 0)}:${portHex}`;
  }
  const bytes = isIPv4(address) ? ipv6Bytes(`::ffff:${address}`) : ipv6Bytes(address);
  if (!bytes) return undefined;
  return `${hexWord(bytes, 0)}${hexWord(bytes, 4)}${hexWord(bytes, 8)}${hexWord(bytes, 12)}:${portHex}`;
}

/** The uid column of a row's text that follows its two endpoints. */
function uidAfter(rest: string): number | undefined {
  // st, tx_queue:rx_queue, tr:tm->when, retrnsmt, uid
  const uid = Number(rest.trim().split(/\s+/)[4]);
  return Number.isInteger(uid) ? uid : undefined;
}

/**
 * Finds the uid of the row whose endpoints are `needle` ("local remote"): undefined when the
 * table cannot be read, null when it has no such row. Reading stops at the row: every read makes
 * the kernel walk on through its socket hash table, and walking to the end of it is what costs
 * (milliseconds on a busy machine); rows already passed are not kept.
 */
export type RowFinder = (path: string, needle: string) => number | null | undefined;

const CHUNK = 64 * 1024;
const chunk = Buffer.allocUnsafe(CHUNK);

export const findRow: RowFinder = (path, needle) => {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const key = ` ${needle} `;
    let carry = '';
    for (;;) {
      const n = readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) return null;
      const text = carry + chunk.toString('latin1', 0, n);
      const at = text.indexOf(key);
      if (at !== -1) {
        let end = text.indexOf('\n', at);
        let row = end === -1 ? text.slice(at + key.length) : text.slice(at + key.length, end);
        // The rest of the row may come with the next read.
        while (end === -1) {
          const more = readSync(fd, chunk, 0, CHUNK, null);
          if (more === 0) break;
          const next = chunk.toString('latin1', 0, more);
          end = next.indexOf('\n');
          row += end === -1 ? next : next.slice(0, end);
        }
        return uidAfter(row) ?? null;
      }
      // Keep the last partial row: the endpoints may straddle two reads.
      const lastNewline = text.lastIndexOf('\n');
      carry = lastNewline === -1 ? text : text.slice(lastNewline);
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
};

/**
 * Decides whether the client end of `ends` belongs to `ownUid`. Fails closed on Linux: a row
 * that cannot be found (or tables that cannot be read) is 'unknown', which the server refuses.
 */
export function peerVerdict(
  ends: Partial<Pick<Socket, 'remoteAddress' | 'remotePort' | 'localAddress' | 'localPort'>>,
  ownUid: number | undefined = process.getuid?.(),
  platform: NodeJS.Platform = process.platform,
  find: RowFinder = findRow,
): PeerVerdict {
  if (platform !== 'linux' || ownUid === undefined) return { kind: 'unchecked' };
  const { remoteAddress, remotePort, localAddress, localPort } = ends;
  if (!remoteAddress || !remotePort || !localAddress || !localPort) return { kind: 'unknown', reason: 'the connection has no address' };
  let readable = false;
  for (const [path, family] of [
    ['/proc/net/tcp', 4],
    ['/proc/net/tcp6', 6],
  ] as const) {
    const client = procEndpoint(remoteAddress, remotePort, family);
    const server = procEndpoint(localAddress, localPort, family);
    if (!client || !server) continue;
    const uid = find(path, `${client} ${server}`);
    if (uid === undefined) continue;
    readable = true;
    if (uid === null) continue;
    return uid === ownUid ? { kind: 'owner' } : { kind: 'other-user', uid };
  }
  return { kind: 'unknown', reason: readable ? 'the client socket is not listed in /proc/net/tcp' : '/proc/net/tcp is not readable' };
}
