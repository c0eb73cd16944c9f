/**
 * A small per-session SSE event store: it lets a client that lost a stream resume it with
 * Last-Event-ID (and makes the SDK send the priming event). Bounded, so a long-lived session
 * never grows without limit: only the most recent events can be replayed.
 */
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

const DEFAULT_CAPACITY = 256;

export class BoundedEventStore implements EventStore {
  private readonly events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
  /** Event ids in the order they were stored, as a ring: the next one to evict sits at `oldest`. */
  private readonly order: string[] = [];
  private oldest = 0;
  private sequence = 0;

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
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

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId ?? streamOf(eventId);
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const streamId = this.events.get(lastEventId)?.streamId ?? streamOf(lastEventId) ?? '';
    let after = false;
    for (const [eventId, event] of this.events) {
      if (eventId === lastEventId) {
        after = true;
        continue;
      }
      if (after && event.streamId === streamId) await send(eventId, event.message);
    }
    return streamId;
  }
}

function streamOf(eventId: string): string | undefined {
  const cut = eventId.lastIndexOf('_');
  return cut > 0 ? eventId.slice(0, cut) : undefined;
}
