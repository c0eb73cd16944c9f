import { createServer, type Server, type Socket, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { peerVerdict } from './peer-user.js';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) await new Promise<void>((r) => s.close(() => r()));
});

/** Opens a real loopback connection and returns the verdict the server side computes. */
async function verdictOver(host: string): Promise<ReturnType<typeof peerVerdict>> {
  const server = createServer();
  servers.push(server);
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  const port = (server.address() as { port: number }).port;
  sockets.push(connect(port, host));
  const socket = await accepted;
  sockets.push(socket);
  return peerVerdict(socket);
}

describe('peerVerdict', () => {
  it.runIf(process.platform === 'linux')('finds the owner of an IPv4 loopback client socket', async () => {
    expect(await verdictOver('127.0.0.1')).toEqual({ kind: 'owner' });
  });

  it.runIf(process.platform === 'linux')('finds the owner of an IPv6 loopback client socket', async () => {
    expect(await verdictOver('::1')).toEqual({ kind: 'owner' });
  });

  it('reads another uid from the row of the client end, and fails closed when there is none', () => {
    // 127.0.0.1:40000 -> 127.0.0.1:8787 owned by uid 65534, as a little-endian kernel prints it.
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:2253 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 1 1 0',
      '   1: 0100007F:9C40 0100007F:2253 01 00000000:00000000 00:00000000 00000000 65534        0 2 1 0',
    ].join('\n');
    const ends = { remoteAddress: '127.0.0.1', remotePort: 40000, localAddress: '127.0.0.1', localPort: 8787 };
    const read = (path: string) => (path.endsWith('tcp') ? table : '');
    const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
    if (little) expect(peerVerdict(ends, 0, 'linux', read)).toEqual({ kind: 'other-user', uid: 65534 });
    expect(peerVerdict({ ...ends, remotePort: 40001 }, 0, 'linux', read)).toMatchObject({ kind: 'unknown' });
    expect(peerVerdict(ends, 0, 'linux', () => undefined)).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining('not readable'),
    });
    expect(peerVerdict(ends, 0, 'win32', read)).toEqual({ kind: 'unchecked' });
  });
});
