import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { memoryLog } from '../../../../test/helpers/runtime.js';
import { rememberSerialized } from '../serialized.js';
import { LineTransport } from './line-transport.js';

/** A real writable that records each write call and can hold back its callbacks (backpressure). */
function recorder(highWaterMark = 1 << 20) {
  const writes: string[] = [];
  let held: (() => void)[] | undefined;
  const output = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      writes.push(chunk.toString('utf8'));
      if (held) held.push(() => callback());
      else callback();
    },
    // A corked batch arrives here whole, as it does at a pipe's writev.
    writev(chunks, callback) {
      writes.push(Buffer.concat(chunks.map(({ chunk }) => chunk as Buffer)).toString('utf8'));
      if (held) held.push(() => callback());
      else callback();
    },
  });
  return {
    output,
    writes,
    hold: () => {
      held = [];
    },
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const done of waiting) done();
    },
  };
}

function transport(output: Writable) {
  const input = new PassThrough();
  const closed: string[] = [];
  const t = new LineTransport({ input, output, log: memoryLog(), onClosed: (reason) => closed.push(reason) });
  return { t, input, closed };
}

const reply = (id: number) => ({ jsonrpc: '2.0' as const, id, result: { n: id } });

describe('LineTransport writes', () => {
  it('sends the replies of one event-loop turn in one write, in order', async () => {
    const out = recorder();
    const { t } = transport(out.output);
    await t.start();
    const sent = [t.send(reply(1)), t.send(reply(2)), t.send(reply(3))];
    expect(out.writes).toEqual([]);
    await Promise.all(sent);
    expect(out.writes).toHaveLength(1);
    expect(
      out.writes[0]
        ?.split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).id),
    ).toEqual([1, 2, 3]);
    await t.send(reply(4));
    expect(out.writes).toHaveLength(2);
    await t.close();
  });

  it('writes a result serialized ahead as its own bytes, in order with the text of the batch', async () => {
    const out = recorder();
    const { t } = transport(out.output);
    await t.start();
    const listed = { tools: [{ name: 'ah.file.read', description: 'Lire un fichier … 📄' }] };
    rememberSerialized(listed, [Buffer.from(JSON.stringify(listed), 'utf8')]);
    const messages = [reply(1), { jsonrpc: '2.0' as const, id: 'list', result: listed }, reply(3)];
    await Promise.all(messages.map((m) => t.send(m)));
    expect(out.writes).toHaveLength(1);
    const [first, list, last] = messages.map((m) => JSON.stringify(m));
    expect(out.writes[0]).toBe(`${first}\n${JSON.stringify({ result: listed, jsonrpc: '2.0', id: 'list' })}\n${last}\n`);
    expect(JSON.parse(out.writes[0]?.split('\n')[1] ?? '')).toEqual(JSON.parse(list ?? ''));
    await t.close();
  });

  it('settles a batch only when a full output drains', async () => {
    const out = recorder(16);
    const { t } = transport(out.output);
    await t.start();
    out.hold();
    let settled = false;
    const first = t.send(reply(1)).then(() => {
      settled = true;
    });
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(out.writes).toHaveLength(1);
    expect(settled).toBe(false);
    out.release();
    await first;
    expect(settled).toBe(true);
    await t.close();
  });

  it('fails the waiting batches when the output fails', async () => {
    const out = recorder(16);
    const { t, closed } = transport(out.output);
    const errors: Error[] = [];
    t.onerror = (error) => errors.push(error);
    await t.start();
    out.hold();
    const pending = t.send(reply(1));
    await new Promise((r) => setImmediate(r));
    out.output.destroy(new Error('pipe gone'));
    await expect(pending).rejects.toThrow('pipe gone');
    expect(errors.map((e) => e.message)).toEqual(['pipe gone']);
    expect(closed).toEqual(['output-error']);
  });

  it('keeps answering after stdin ends, and refuses replies only once closed', async () => {
    const out = recorder();
    const { t, input, closed } = transport(out.output);
    await t.start();
    const before = t.send(reply(1));
    input.end();
    await before;
    await new Promise((r) => setImmediate(r));
    expect(closed).toEqual(['stdin-eof']);
    // The end of the input is not the end of the wire: answers still owed go out.
    await t.send(reply(2));
    expect(out.writes.join('')).toContain('"id":1');
    expect(out.writes.join('')).toContain('"id":2');
    await t.close();
    expect(closed).toEqual(['stdin-eof']);
    await expect(t.send(reply(3))).rejects.toThrow('closed');
  });

  it('answered() waits for every request read, except those the client cancelled', async () => {
    const out = recorder();
    const { t, input } = transport(out.output);
    await t.start();
    const request = (id: number | string) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;
    input.write(request(1) + request('1') + request(2));
    input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } })}\n`);
    input.end();
    await new Promise((r) => setImmediate(r));
    let done = false;
    const answered = t.answered().then(() => {
      done = true;
    });
    await t.send(reply(1));
    await new Promise((r) => setImmediate(r));
    // 1 and "1" are different requests: the string one is still owed.
    expect(done).toBe(false);
    await t.send({ jsonrpc: '2.0', id: '1', result: {} });
    await answered;
    expect(done).toBe(true);
  });
});
