/**
 * Idle connections the MCP server keeps for the next read-only call to the same place.
 *
 * A connection costs about 20 ms here (TCP, a backend fork, SCRAM), which is most of a small
 * query; an agent asks many. Only read-only sessions of a long-lived server are kept: the CLI
 * exits after one call, and sessions that may write are never shared. A connection is kept only
 * after `DISCARD ALL` succeeded on it (settings changed with set_config, temporary tables,
 * advisory locks, prepared plans and LISTENs are gone; `RESET ALL` restores the start-up
 * settings, default_transaction_read_only among them). The key holds everything the connection
 * was opened with, the password as a salted hash, so a call never gets a session another
 * password or another setting opened.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import type { ConnectionConfig } from './connection-config.js';

/** Idle time after which a kept connection is closed. */
const IDLE_MS = 30_000;
const MAX_PER_KEY = 4;
const MAX_IDLE = 16;

interface Kept {
  client: Client;
  timer: NodeJS.Timeout;
  forget: () => void;
}

const idle = new Map<string, Kept[]>();
let idleCount = 0;
let salt: Buffer | undefined;

interface Socketish {
  ref?: () => void;
  unref?: () => void;
  destroy(): void;
}

/** The driver's socket of a client (pg keeps it on `connection.stream`), to destroy or (un)ref. */
export function socketOf(client: Client): Socketish | undefined {
  return (client as unknown as { connection?: { stream?: Socketish } }).connection?.stream;
}

export function poolKey(config: ConnectionConfig, password: string | null): string {
  salt ??= randomBytes(16);
  const secret = password === null ? '' : createHash('sha256').update(salt).update(password).digest('base64');
  return JSON.stringify([
    config.host,
    config.port,
    config.user,
    config.database,
    config.sslmode,
    config.sslrootcert,
    config.statementTimeoutMs,
    secret,
  ]);
}

function remove(key: string, kept: Kept): boolean {
  const list = idle.get(key);
  const at = list?.indexOf(kept) ?? -1;
  if (list === undefined || at === -1) return false;
  list.splice(at, 1);
  if (list.length === 0) idle.delete(key);
  idleCount -= 1;
  clearTimeout(kept.timer);
  kept.forget();
  return true;
}

/** Resets under way, per key: a call that finds no idle connection waits for one of these. */
const resetting = new Map<string, Set<Promise<void>>>();

/**
 * A kept connection for this key (newest first), or undefined. A connection still being reset
 * (the call before this one answered a moment ago) is waited for: that takes one round trip,
 * a new connection about 20.
 */
export async function take(key: string): Promise<Client | undefined> {
  for (;;) {
    const kept = idle.get(key)?.at(-1);
    if (kept !== undefined) {
      remove(key, kept);
      socketOf(kept.client)?.ref?.();
      return kept.client;
    }
    const pending = resetting.get(key);
    if (pending === undefined) return undefined;
    await Promise.race(pending);
  }
}

function close(client: Client): void {
  client.end().catch(() => socketOf(client)?.destroy());
}

/**
 * Resets a connection whose call succeeded and keeps it; closes it instead when the reset fails
 * or the pool is full. Runs after the call has answered.
 */
export function keep(key: string, client: Client): void {
  const pending = resetting.get(key) ?? new Set<Promise<void>>();
  resetting.set(key, pending);
  const reset = resetAndKeep(key, client).finally(() => {
    pending.delete(reset);
    if (pending.size === 0) resetting.delete(key);
  });
  pending.add(reset);
}

async function resetAndKeep(key: string, client: Client): Promise<void> {
  try {
    await client.query('DISCARD ALL');
  } catch {
    socketOf(client)?.destroy();
    return;
  }
  const list = idle.get(key) ?? [];
  if (list.length >= MAX_PER_KEY || idleCount >= MAX_IDLE) {
    close(client);
    return;
  }
  // A kept connection that the server or the network ends is dropped from the pool.
  const onGone = () => {
    if (remove(key, kept)) socketOf(client)?.destroy();
  };
  const kept: Kept = {
    client,
    timer: setTimeout(() => {
      if (remove(key, kept)) close(client);
    }, IDLE_MS),
    forget: () => {
      client.removeListener('error', onGone);
      client.removeListener('end', onGone);
    },
  };
  kept.timer.unref();
  client.on('error', onGone);
  client.on('end', onGone);
  // An idle connection must not keep the process alive.
  socketOf(client)?.unref?.();
  list.push(kept);
  idle.set(key, list);
  idleCount += 1;
}

/** Backend pids of the idle connections (postgres.activity leaves them out, like its own session). */
export function idlePids(): number[] {
  const pids: number[] = [];
  for (const list of idle.values())
    for (const kept of list) {
      const pid = (kept.client as unknown as { processID: number | null }).processID;
      if (pid !== null) pids.push(pid);
    }
  return pids;
}
