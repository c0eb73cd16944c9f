import { describe, expect, it } from 'vitest';
import { BoundedEventStore } from './event-store.js';

const message = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { n } });

async function replay(store: BoundedEventStore, after: string): Promise<{ stream: string; ids: string[] }> {
  const ids: string[] = [];
  const stream = await store.replayEventsAfter(after, {
    send: async (eventId) => {
      ids.push(eventId);
    },
  });
  return { stream, ids };
}

describe('BoundedEventStore', () => {
  it('replays the later events of the same stream', async () => {
    const store = new BoundedEventStore(8);
    const a1 = await store.storeEvent('a', message(1));
    await store.storeEvent('b', message(2));
    const a3 = await store.storeEvent('a', message(3));
    expect(await replay(store, a1)).toEqual({ stream: 'a', ids: [a3] });
    expect(await store.getStreamIdForEventId(a3)).toBe('a');
  });

  it('keeps only the newest events, evicting the oldest first', async () => {
    const store = new BoundedEventStore(3);
    const ids: string[] = [];
    for (let n = 0; n < 7; n += 1) ids.push(await store.storeEvent('s', message(n)));
    // The first four are gone; replaying after the oldest kept one gives the last two.
    expect(await replay(store, ids[4] as string)).toEqual({ stream: 's', ids: [ids[5], ids[6]] });
    expect(await replay(store, ids[0] as string)).toEqual({ stream: 's', ids: [] });
    // An evicted id still names its stream.
    expect(await store.getStreamIdForEventId(ids[0] as string)).toBe('s');
  });
});
