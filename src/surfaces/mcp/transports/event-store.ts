/**
 * A small per-session SSE event store: it lets a client that lost a stream resume it with
 * Last-Event-ID. Bounded, so a long-lived session never grows without limit: only the most recent
 * events can be replayed. Synchronous, so the session transport writes events in the order they
 * were stored without waiting between them.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

const DEFAULT_CAPACITY = 256;

export class BoundedEventStore {
  private readonly events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
  /** Event ids in the order they were stored, as a ring: the next one to evict sits at `oldest`. */
  private readonly order: string[] = [];
  private oldest = 0;
  private sequence = 0;

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** Stores one event of a stream; returns its id. */
  store(streamId: string, message: JSONRPCMessage): string {
    this.sequence += 1;
    // The stream id is part of the event id, so ids stay unique across the session's streams.
    const eventId = `${streamId}_${this.sequence}`;
    this.events.set(eventId, { streamId, message });
    if (this.order.length < this.capacity) this.order.push(eventId);
    else {
      this.events.delete(this.order[this.oldest] as string);
      this.order[this.oldest] = eventId;
      this.oldest = (this.oldest + 1) % this.capacity;
    }
    return eventId;
  }

  /** The stream an event belongs to, also for an evicted id (it is part of the id). */
  streamOf(eventId: string): string | undefined {
    return this.events.get(eventId)?.streamId ?? streamOfId(eventId);
  }

  /** The events of the same stream stored after `lastEventId`, oldest first. */
  after(lastEventId: string): [string, JSONRPCMessage][] {
    const streamId = this.streamOf(lastEventId) ?? '';
    const out: [string, JSONRPCMessage][] = [];
    let after = false;
    for (const [eventId, event] of this.events) {
      if (eventId === lastEventId) {
        after = true;
        continue;
      }
      if (after && event.streamId === streamId) out.push([eventId, event.message]);
    }
    return out;
  }
}

function streamOfId(eventId: string): string | undefined {
  const cut = eventId.lastIndexOf('_');
  return cut > 0 ? eventId.slice(0, cut) : undefined;
}
