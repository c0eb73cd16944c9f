/**
 * Which OS user owns the other end of a loopback TCP connection. Binding 127.0.0.1 keeps other
 * machines out, not other users of this one; the HTTP server serves only connections whose
 * client socket belongs to its own user.
 *
 * Linux: the kernel lists every TCP socket of the network namespace with its owner's uid in
 * /proc/net/tcp (IPv4) and /proc/net/tcp6. The client's socket is the row whose local address is
 * the connection's remote end and whose remote address is our end. One pass over the tables
 * answers for every connection waiting at the time.
 * Other platforms: no check is possible without a native addon (Windows would need
 * GetExtendedTcpTable and the owning process's token; macOS has no per-socket owner API for TCP
 * without libproc), so the answer there is 'unchecked'.
 */
import { open } from 'node:fs/promises';
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
 * Finds the uid of each row whose endpoints are one of `needles` ("local remote"): undefined when
 * the table cannot be read; a needle without a row is left out of the map (null: a row without a
 * readable uid). Reading stops once every needle has its row. The kernel formats the table ~4 KB
 * a read, walking its socket hash table, TIME-WAIT sockets included (~4 ms for 500 of them), so
 * the reads go to the thread pool: the event loop keeps serving open connections meanwhile.
 */
export type RowFinder = (path: string, needles: ReadonlySet<string>) => Promise<Map<string, number | null> | undefined>;

const CHUNK = 64 * 1024;

/** Looks for the rows of `left` in complete rows of text, moving each found needle into `found`. */
function matchRows(text: string, left: Set<string>, found: Map<string, number | null>): void {
  for (const needle of left) {
    const key = ` ${needle} `;
    const at = text.indexOf(key);
    if (at === -1) continue;
    const end = text.indexOf('\n', at);
    found.set(needle, uidAfter(end === -1 ? text.slice(at + key.length) : text.slice(at + key.length, end)) ?? null);
    left.delete(needle);
  }
}

export const findRows: RowFinder = async (path, needles) => {
  const found = new Map<string, number | null>();
  const left = new Set(needles);
  if (left.size === 0) return found;
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    // Only complete rows are searched: the rest of a row waits for the next read.
    let carry = '';
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, CHUNK, null);
      if (bytesRead === 0) {
        matchRows(carry, left, found);
        return found;
      }
      const text = carry + chunk.toString('latin1', 0, bytesRead);
      const lastNewline = text.lastIndexOf('\n');
      if (lastNewline === -1) {
        carry = text;
        continue;
      }
      matchRows(text.slice(0, lastNewline + 1), left, found);
      if (left.size === 0) return found;
      carry = text.slice(lastNewline + 1);
    }
  } catch {
    return undefined;
  } finally {
    await file.close().catch(() => undefined);
  }
};

type Ends = Partial<Pick<Socket, 'remoteAddress' | 'remotePort' | 'localAddress' | 'localPort'>>;

/**
 * Decides, for each connection, whether its client end belongs to `ownUid`, with one pass over
 * each table for all of them. Fails closed on Linux: a row that cannot be found (or tables that
 * cannot be read) is 'unknown', which the server refuses.
 */
export async function peerVerdicts(
  connections: readonly Ends[],
  ownUid: number | undefined = process.getuid?.(),
  platform: NodeJS.Platform = process.platform,
  find: RowFinder = findRows,
): Promise<PeerVerdict[]> {
  if (platform !== 'linux' || ownUid === undefined) return connections.map(() => ({ kind: 'unchecked' }));
  const verdicts: (PeerVerdict | undefined)[] = connections.map((ends) =>
    !ends.remoteAddress || !ends.remotePort || !ends.localAddress || !ends.localPort
      ? { kind: 'unknown', reason: 'the connection has no address' }
      : undefined,
  );
  // Connections whose table could be read: the others fail closed with a different reason.
  const readable = new Set<number>();
  for (const [path, family] of [
    ['/proc/net/tcp', 4],
    ['/proc/net/tcp6', 6],
  ] as const) {
    const needles = new Map<number, string>();
    connections.forEach((ends, i) => {
      if (verdicts[i] !== undefined) return;
      const client = procEndpoint(ends.remoteAddress as string, ends.remotePort as number, family);
      const server = procEndpoint(ends.localAddress as string, ends.localPort as number, family);
      if (client && server) needles.set(i, `${client} ${server}`);
    });
    if (needles.size === 0) continue;
    const rows = await find(path, new Set(needles.values()));
    if (rows === undefined) continue;
    for (const [i, needle] of needles) {
      readable.add(i);
      const uid = rows.get(needle);
      if (uid === undefined || uid === null) continue;
      verdicts[i] = uid === ownUid ? { kind: 'owner' } : { kind: 'other-user', uid };
    }
  }
  return verdicts.map(
    (v, i) =>
      v ?? {
        kind: 'unknown',
        reason: readable.has(i) ? 'the client socket is not listed in /proc/net/tcp' : '/proc/net/tcp is not readable',
      },
  );
}
