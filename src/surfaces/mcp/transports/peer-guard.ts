/**
 * Only the server's own OS user reaches it: each accepted TCP connection is checked once (the
 * owner of its client socket, platform/peer-user.ts) and the verdict is kept on the socket, so
 * a request costs one property read. A refused connection gets a JSON 403 on every request; the
 * refusal is logged once per connection.
 */
import type { Socket } from 'node:net';
import type { EventLog } from '../../../logging/types.js';
import { peerVerdict } from '../../../platform/peer-user.js';

const REFUSAL = Symbol('ah.peerRefusal');

type CheckedSocket = Socket & { [REFUSAL]?: string };

export function checkPeer(socket: Socket, log: EventLog): void {
  const verdict = peerVerdict(socket);
  if (verdict.kind === 'owner' || verdict.kind === 'unchecked') return;
  const own = process.getuid?.();
  const message =
    verdict.kind === 'other-user'
      ? `connection refused: the client runs as uid ${verdict.uid}; this server serves only its own user (uid ${own})`
      : `connection refused: the connecting user could not be verified (${verdict.reason})`;
  (socket as CheckedSocket)[REFUSAL] = message;
  log.system({
    component: 'mcp_transport',
    severity: 'warning',
    diagnostic: { code: 'PEER_USER_REJECTED', message, exit_code_hint: 0 },
    context: { transport: 'http', ...(verdict.kind === 'other-user' ? { peer_uid: verdict.uid } : {}) },
  });
}

/** The refusal message for a request on a refused connection, or undefined when it may proceed. */
export function peerRejection(socket: Socket): string | undefined {
  return (socket as CheckedSocket)[REFUSAL];
}
