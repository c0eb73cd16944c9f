/** Bytes the calling thread has read through read(2) (Linux: /proc/thread-self/io), for tests that bound reads. */
import { existsSync, readFileSync } from 'node:fs';

const THREAD_IO = '/proc/thread-self/io';

/** Whether this platform counts a thread's reads (the tests that use bytesRead skip without it). */
export const threadIoCounted = existsSync(THREAD_IO);

/** The thread's read(2) byte count so far; reading the counter itself adds ~100 bytes. */
export function bytesRead(): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync(THREAD_IO, 'utf8'))?.[1]);
}
