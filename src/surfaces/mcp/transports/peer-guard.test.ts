import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { EventLog, SystemEventInput } from '../../../logging/types.js';
import { NULL_LOG } from '../../../logging/types.js';
import type { peerVerdicts } from '../../../platform/peer-user.js';
import { PeerGuard } from './peer-guard.js';

type Verdicts = Awaited<ReturnType<typeof peerVerdicts>>;

/** A stand-in connection: the guard reads only `destroyed` and the port the fake decider keys on. */
const socket = (remotePort: number, destroyed = false) => ({ remotePort, destroyed }) as unknown as Socket;

function recordingLog(): { log: EventLog; events: SystemEventInput[] } {
  const events: SystemEventInput[] = [];
  return { log: { ...NULL_LOG, system: (event) => events.push(event) }, events };
}

/** A decider whose passes finish when the test says so, keyed by port: 1000 the owner, others not. */
function controlledDecider() {
  const passes: { ports: number[]; finish: () => void }[] = [];
  const decide = (connections: readonly Partial<Socket>[]): Promise<Verdicts> =>
    new Promise((resolve) => {
      const ports = connections.map((c) => c.remotePort as number);
      passes.push({
        ports,
        finish: () => resolve(ports.map((p) => (p === 1000 ? { kind: 'owner' } : { kind: 'other-user', uid: p }))),
      });
    });
  return { decide: decide as unknown as typeof peerVerdicts, passes };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('PeerGuard', () => {
  it('checks connections that arrive during a pass together in the next one', async () => {
    const { log, events } = recordingLog();
    const { decide, passes } = controlledDecider();
    const guard = new PeerGuard(log, decide);
    const first = socket(1000);
    guard.admit(first);
    const during = [socket(1000), socket(65534), socket(1000)];
    for (const s of during) guard.admit(s);
    expect(passes.map((p) => p.ports)).toEqual([[1000]]);
    // Requests wait for their own connection's verdict.
    const waiting = guard.rejection(first);
    expect(waiting).toBeInstanceOf(Promise);
    passes[0]?.finish();
    expect(await waiting).toBeUndefined();
    await tick();
    expect(passes.map((p) => p.ports)).toEqual([[1000], [1000, 65534, 1000]]);
    const verdicts = during.map((s) => guard.rejection(s));
    passes[1]?.finish();
    const [a, b, c] = await Promise.all(verdicts);
    expect(a).toBeUndefined();
    expect(b).toContain('uid 65534');
    expect(c).toBeUndefined();
    // Once known, the verdict is a plain value, and the refusal was logged once.
    expect(guard.rejection(during[1] as Socket)).toContain('uid 65534');
    expect(guard.rejection(first)).toBeUndefined();
    expect(events.map((e) => e.diagnostic.code)).toEqual(['PEER_USER_REJECTED']);
  });

  it('fails closed when the check itself fails, and skips connections already gone', async () => {
    const { log, events } = recordingLog();
    const seen: number[][] = [];
    const guard = new PeerGuard(log, (async (connections: readonly Partial<Socket>[]) => {
      seen.push(connections.map((c) => c.remotePort as number));
      throw new Error('table vanished');
    }) as unknown as typeof peerVerdicts);
    const gone = socket(7, true);
    guard.admit(gone);
    expect(await guard.rejection(gone)).toBeUndefined();
    const live = socket(1000);
    guard.admit(live);
    expect(await guard.rejection(live)).toContain('could not be verified (table vanished)');
    expect(seen).toEqual([[1000]]);
    expect(events).toHaveLength(1);
  });
});
