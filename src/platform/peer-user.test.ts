import { writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { endianness } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/tmp.js';
import { findRow, peerVerdict, type RowFinder } from './peer-user.js';

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
    // 127.0.0.1:40000 -> 127.0.0.1:8787 owned by uid 65534, as a little-endian kernel prints it;
    // padded with rows so the match falls beyond the first read.
    const filler = Array.from(
      { length: 2000 },
      (_, i) => `   ${i}: 0100007F:1000 0100007F:2000 06 00000000:00000000 00:00000000 00000000     0        0 0 3 0`,
    );
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      ...filler,
      '   1: 0100007F:9C40 0100007F:2253 01 00000000:00000000 00:00000000 00000000 65534        0 2 1 0',
      '   2: 0100007F:2253 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 1 1 0',
    ].join('\n');
    const dir = tempDir('ah-peer-');
    writeFileSync(join(dir, 'tcp'), table);
    writeFileSync(join(dir, 'tcp6'), table.split('\n')[0] as string);
    const find: RowFinder = (path, needle) => findRow(join(dir, basename(path)), needle);
    const ends = { remoteAddress: '127.0.0.1', remotePort: 40000, localAddress: '127.0.0.1', localPort: 8787 };
    if (endianness() === 'LE') expect(peerVerdict(ends, 0, 'linux', find)).toEqual({ kind: 'other-user', uid: 65534 });
    expect(peerVerdict({ ...ends, remotePort: 40001 }, 0, 'linux', find)).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining('not listed'),
    });
    expect(peerVerdict(ends, 0, 'linux', () => undefined)).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining('not readable'),
    });
    expect(peerVerdict(ends, 0, 'win32', find)).toEqual({ kind: 'unchecked' });
  });
});
