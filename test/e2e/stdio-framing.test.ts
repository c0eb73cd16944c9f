// Malformed and oversized stdio input: every request with a readable id gets a JSON-RPC error with
// that id, unparsable lines get -32700 (id null), an over-long line is answered and skipped
// without closing the transport, and each failure is a redacted `system` log record.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { RawStdioPeer } from '../helpers/mcp.js';

const peers: RawStdioPeer[] = [];
afterEach(() => {
  for (const peer of peers.splice(0)) if (peer.child.exitCode === null && peer.child.signalCode === null) peer.child.kill('SIGKILL');
});

function start(): { peer: RawStdioPeer; configDir: string } {
  const { env, configDir } = isolatedEnv();
  const peer = new RawStdioPeer(['mcp', 'serve'], { env });
  peers.push(peer);
  return { peer, configDir };
}

function writeLine(peer: RawStdioPeer, line: string): void {
  peer.child.stdin?.write(`${line}\n`);
}

async function errorFor(peer: RawStdioPeer, id: number | string): Promise<{ code: number; message: string }> {
  const response = await peer.response(id);
  expect(response, JSON.stringify(response)).toHaveProperty('error');
  return response.error as { code: number; message: string };
}

function systemRecords(configDir: string): Array<Record<string, unknown>> {
  const dir = join(configDir, 'logs');
  const lines = readdirSync(dir).flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'));
  return lines
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r.event === 'system');
}

describe('stdio framing under malformed input', () => {
  it('answers malformed requests with -32600 and their id, and unparsable lines with -32700', async () => {
    const { peer, configDir } = start();
    await peer.initialize();
    const cases: Array<[number, string]> = [
      [7, '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{},"extra":true}'],
      [8, '{"jsonrpc":"2.0","id":8,"method":"tools/list","params":[1,2]}'],
      [9, '{"jsonrpc":"1.0","id":9,"method":"tools/list"}'],
      [10, '{"id":10,"method":"tools/list"}'],
      [11, '{"jsonrpc":"2.0","id":11,"method":5}'],
      [
        12,
        '{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"ah.file.read","arguments":{"password":"hunter2-secret"}},"x":1}',
      ],
    ];
    for (const [, line] of cases) writeLine(peer, line);
    for (const [id] of cases) expect((await errorFor(peer, id)).code).toBe(-32600);
    // Bad _meta is answered too (by the SDK's own checks or ours), never dropped.
    writeLine(peer, '{"jsonrpc":"2.0","id":13,"method":"tools/list","params":{"_meta":5}}');
    expect(await peer.response(13)).toHaveProperty('jsonrpc', '2.0');

    const before = peer.messages.length;
    writeLine(peer, '{"jsonrpc":"2.0","id":14,"method":');
    writeLine(peer, 'not json at all');
    writeLine(peer, '[{"jsonrpc":"2.0","id":15,"method":"ping"}]');
    const deadline = Date.now() + 10_000;
    while (peer.messages.length < before + 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const nullIds = peer.messages.slice(before).map((m) => [m.id, (m.error as { code: number }).code]);
    expect(nullIds).toEqual([
      [null, -32700],
      [null, -32700],
      [null, -32600],
    ]);
    // A notification with a bad shape has nobody to answer: nothing is written for it.
    writeLine(peer, '{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}');
    peer.send({ id: 16, method: 'ping' });
    expect(await peer.response(16)).toMatchObject({ result: {} });
    expect(peer.badLines).toEqual([]);

    peer.closeStdin();
    expect(await peer.exited).toBe(0);
    const records = systemRecords(configDir).filter((r) => r.component === 'mcp_transport');
    expect(records.length).toBeGreaterThanOrEqual(cases.length + 4);
    expect(records.map((r) => (r.diagnostic as { code: string }).code)).toContain('MCP_PROTOCOL_ERROR');
    const text = JSON.stringify(records);
    expect(text).not.toContain('hunter2-secret');
    for (const record of records) expect(String((record.context as { excerpt?: string }).excerpt ?? '').length).toBeLessThanOrEqual(201);
  }, 60_000);

  it('answers and skips a line over 10 MB, then keeps serving', async () => {
    const { peer, configDir } = start();
    await peer.initialize();
    const huge = `{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"ah.file.read","arguments":{"path":"${'a'.repeat(11 * 1024 * 1024)}"}}}`;
    peer.child.stdin?.write(`${huge}\n`);
    const error = await errorFor(peer, 21);
    expect(error.code).toBe(-32600);
    expect(error.message).toContain('larger than');
    peer.send({ id: 22, method: 'ping' });
    expect(await peer.response(22)).toMatchObject({ result: {} });
    peer.closeStdin();
    expect(await peer.exited).toBe(0);
    const codes = systemRecords(configDir).map((r) => (r.diagnostic as { code: string }).code);
    expect(codes).toContain('MCP_MESSAGE_TOO_LARGE');
  }, 60_000);
});
