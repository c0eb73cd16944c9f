/**
 * Only the server's own OS user reaches it: each accepted TCP connection is checked once (the
 * owner of its client socket, platform/peer-user.ts) and the verdict is kept on the socket, so
 * a request costs one property read once it is known. A refused connection gets a JSON 403 on
 * every request; the refusal is logged once per connection.
 *
 * The check reads the kernel's socket tables on the thread pool, one pass for every connection
 * waiting at the time: connections accepted while a pass runs share the next one. An agent's
 * client reopens its pool of sockets after a few idle seconds (32 at once at 32 calls in flight);
 * a synchronous pass per connection held the event loop ~1–4 ms each, every call of every open
 * connection waiting behind the burst. A request waits only for its own connection's verdict.
 */
import type { Socket } from 'node:net';
import type { EventLog } from '../../../logging/types.js';
import { peerVerdicts } from '../../../platform/peer-user.js';

const REFUSAL = Symbol('ah.peerRefusal');
const PENDING = Symbol('ah.peerPending');

type CheckedSocket = Socket & { [REFUSAL]?: string; [PENDING]?: Promise<void> };

interface Batch {
  sockets: CheckedSocket[];
  done: Promise<void>;
  settle: () => void;
}

function newBatch(): Batch {
  let settle = (): void => undefined;
  const done = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { sockets: [], done, settle };
}

export class PeerGuard {
  /** Connections accepted since the running pass began; checked together by the next one. */
  private next: Batch | undefined;
  private running = false;

  constructor(
    private readonly log: EventLog,
    private readonly decide: typeof peerVerdicts = peerVerdicts,
  ) {}

  /** Queues a newly accepted connection; its pass starts now if none is running. */
  admit(socket: Socket): void {
    const checked = socket as CheckedSocket;
    this.next ??= newBatch();
    this.next.sockets.push(checked);
    checked[PENDING] = this.next.done;
    if (!this.running) void this.drain();
  }

  /**
   * The refusal message for a request on a refused connection, undefined when it may proceed, or
   * a promise of either while the connection's pass runs.
   */
  rejection(socket: Socket): string | undefined | Promise<string | undefined> {
    const checked = socket as CheckedSocket;
    const pending = checked[PENDING];
    return pending === undefined ? checked[REFUSAL] : pending.then(() => checked[REFUSAL]);
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.next !== undefined) {
      const batch = this.next;
      this.next = undefined;
      try {
        await this.check(batch.sockets);
      } finally {
        for (const socket of batch.sockets) delete socket[PENDING];
        batch.settle();
      }
    }
    this.running = false;
  }

  private async check(batch: CheckedSocket[]): Promise<void> {
    // A connection already gone sends no request: no verdict, and no refusal logged for it.
    const open = batch.filter((socket) => !socket.destroyed);
    if (open.length === 0) return;
    let verdicts: Awaited<ReturnType<typeof peerVerdicts>>;
    try {
      verdicts = await this.decide(open);
    } catch (error) {
      // Fail closed: a connection whose owner could not be told is refused.
      const reason = error instanceof Error ? error.message : String(error);
      verdicts = open.map(() => ({ kind: 'unknown', reason }));
    }
    const own = process.getuid?.();
    open.forEach((socket, i) => {
      const verdict = verdicts[i] ?? { kind: 'unknown', reason: 'no verdict' };
      if (verdict.kind === 'owner' || verdict.kind === 'unchecked') return;
      const message =
        verdict.kind === 'other-user'
          ? `connection refused: the client runs as uid ${verdict.uid}; this server serves only its own user (uid ${own})`
          : `connection refused: the connecting user could not be verified (${verdict.reason})`;
      socket[REFUSAL] = message;
      this.log.system({
        component: 'mcp_transport',
        severity: 'warning',
        diagnostic: { code: 'PEER_USER_REJECTED', message, exit_code_hint: 0 },
        context: { transport: 'http', ...(verdict.kind === 'other-user' ? { peer_uid: verdict.uid } : {}) },
      });
    });
  }
}
