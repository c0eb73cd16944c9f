import { describe, expect, it } from 'vitest';
import { BoundedEventStore } from './event-store.js';

const message = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { n } });
const ids = (events: [string, unknown][]) => events.map(([id]) => id);

describe('BoundedEventStore', () => {
  it('replays the later events of the same stream', () => {
    const store = new BoundedEventStore(8);
    const a1 = store.store('a', message(1));
    store.store('b', message(2));
    const a3 = store.store('a', message(3));
    expect(ids(store.after(a1))).toEqual([a3]);
    expect(store.after(a1)[0]?.[1]).toEqual(message(3));
    expect(store.streamOf(a3)).toBe('a');
  });

  it('keeps only the newest events, evicting the oldest first', () => {
    const store = new BoundedEventStore(3);
    const stored: string[] = [];
    for (let n = 0; n < 7; n += 1) stored.push(store.store('s', message(n)));
    // The first four are gone; replaying after the oldest kept one gives the last two.
    expect(ids(store.after(stored[4] as string))).toEqual([stored[5], stored[6]]);
    expect(store.after(stored[0] as string)).toEqual([]);
    // An evicted id still names its stream.
    expect(store.streamOf(stored[0] as string)).toBe('s');
  });

  it('keeps the streams of ids with underscores apart', () => {
    const store = new BoundedEventStore(8);
    const a = store.store('s_1', message(1));
    store.store('s', message(2));
    const b = store.store('s_1', message(3));
    expect(store.streamOf(a)).toBe('s_1');
    expect(ids(store.after(a))).toEqual([b]);
  });
});
