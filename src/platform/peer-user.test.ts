import { writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { endianness } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/tmp.js';
import { findRows, peerVerdicts, type RowFinder } from './peer-user.js';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) await new Promise<void>((r) => s.close(() => r()));
});

/** Opens a real loopback connection and returns the verdict the server side computes. */
async function verdictOver(host: string): Promise<Awaited<ReturnType<typeof peerVerdicts>>[number] | undefined> {
  const server = createServer();
  servers.push(server);
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  const port = (server.address() as { port: number }).port;
  sockets.push(connect(port, host));
  const socket = await accepted;
  sockets.push(socket);
  return (await peerVerdicts([socket]))[0];
}

describe('peerVerdicts', () => {
  it.runIf(process.platform === 'linux')('finds the owner of an IPv4 loopback client socket', async () => {
    expect(await verdictOver('127.0.0.1')).toEqual({ kind: 'owner' });
  });

  it.runIf(process.platform === 'linux')('finds the owner of an IPv6 loopback client socket', async () => {
    expect(await verdictOver('::1')).toEqual({ kind: 'owner' });
  });

  it('reads another uid from the row of the client end, and fails closed when there is none', async () => {
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
    const find: RowFinder = (path, needles) => findRows(join(dir, basename(path)), needles);
    const ends = { remoteAddress: '127.0.0.1', remotePort: 40000, localAddress: '127.0.0.1', localPort: 8787 };
    if (endianness() === 'LE') expect((await peerVerdicts([ends], 0, 'linux', find))[0]).toEqual({ kind: 'other-user', uid: 65534 });
    expect((await peerVerdicts([{ ...ends, remotePort: 40001 }], 0, 'linux', find))[0]).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining('not listed'),
    });
    expect((await peerVerdicts([ends], 0, 'linux', async () => undefined))[0]).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining('not readable'),
    });
    expect((await peerVerdicts([ends], 0, 'win32', find))[0]).toEqual({ kind: 'unchecked' });
  });

  it('answers a batch of connections with one pass over each table', async () => {
    // Rows of three client ends owned by 0, 1000 and 65534 (little-endian text); a fourth client
    // has no row. One row straddles the 64 KiB read, the others are before and after it.
    const row = (port: number, uid: number) =>
      `   9: 0100007F:${port.toString(16).toUpperCase().padStart(4, '0')} 0100007F:2253 01 00000000:00000000 00:00000000 00000000 ${String(uid).padStart(5)}        0 2 1 0`;
    const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
    const filler = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => `   ${i}: 0100007F:1000 0100007F:2000 06 00000000:00000000 00:00000000 00000000     0        0 0 3 0`,
      );
    let lines = [header, row(40000, 0), ...filler(600)];
    // Pad with a short row so that the next row starts 40 bytes before the end of the first read.
    const used = lines.join('\n').length + 1;
    const pad = 65536 - 40 - used - 1;
    lines.push(`#${'x'.repeat(pad)}`);
    lines = [...lines, row(40001, 1000), ...filler(600), row(40002, 65534)];
    const table = lines.join('\n');
    expect(table.indexOf(row(40001, 1000))).toBeLessThan(65536);
    expect(table.indexOf(row(40001, 1000)) + row(40001, 1000).length).toBeGreaterThan(65536);
    const dir = tempDir('ah-peer-');
    writeFileSync(join(dir, 'tcp'), table);
    writeFileSync(join(dir, 'tcp6'), header);
    const passes: string[] = [];
    const find: RowFinder = (path, needles) => {
      passes.push(`${basename(path)}:${needles.size}`);
      return findRows(join(dir, basename(path)), needles);
    };
    const ends = (port: number) => ({ remoteAddress: '127.0.0.1', remotePort: port, localAddress: '127.0.0.1', localPort: 8787 });
    const verdicts = await peerVerdicts([ends(40000), ends(40001), ends(40002), ends(40003), {}], 1000, 'linux', find);
    if (endianness() === 'LE') {
      expect(verdicts.slice(0, 3)).toEqual([{ kind: 'other-user', uid: 0 }, { kind: 'owner' }, { kind: 'other-user', uid: 65534 }]);
      // The client without a row is looked for in tcp6 as well (an IPv4 client of a dual-stack socket).
      expect(passes).toEqual(['tcp:4', 'tcp6:1']);
    }
    expect(verdicts[3]).toMatchObject({ kind: 'unknown', reason: expect.stringContaining('not listed') });
    expect(verdicts[4]).toEqual({ kind: 'unknown', reason: 'the connection has no address' });
    expect(await peerVerdicts([ends(40000), ends(40001)], 1000, 'darwin', find)).toEqual([{ kind: 'unchecked' }, { kind: 'unchecked' }]);
  });

  it('stops reading a table once every needle has its row', async () => {
    const dir = tempDir('ah-peer-');
    const table = ['header', ' 1: AAA BBB 01 0:0 0:0 0 42 0', ' 2: CCC DDD 01 0:0 0:0 0 43 0', 'not a row at all'].join('\n');
    writeFileSync(join(dir, 'tcp'), table);
    expect(await findRows(join(dir, 'tcp'), new Set(['AAA BBB', 'CCC DDD', 'EEE FFF']))).toEqual(
      new Map([
        ['AAA BBB', 42],
        ['CCC DDD', 43],
      ]),
    );
    expect(await findRows(join(dir, 'tcp'), new Set())).toEqual(new Map());
    expect(await findRows(join(dir, 'missing'), new Set(['AAA BBB']))).toBeUndefined();
  });
});
