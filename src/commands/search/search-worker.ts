/**
 * The search worker (built as dist/search-worker.cjs): runs units of the search jobs it is sent,
 * claiming them through the job's shared control words (parallel.ts), and posts each unit's result.
 */
import { parentPort } from 'node:worker_threads';
import { jobRunner, type SearchJob } from './engine.js';
import { claimNext, HITS, unitStopped, type WorkerMessage } from './protocol.js';

const state = { buffer: null };
const port = parentPort;

port?.on('message', (message: { id: number; job: SearchJob; control: Int32Array }) => {
  const { id, job, control } = message;
  const post = (reply: WorkerMessage) => port.postMessage(reply);
  try {
    const runner = jobRunner(job, state);
    for (;;) {
      const index = claimNext(control, job.units.length);
      if (index === -1) break;
      const result = runner.run(
        index,
        () => unitStopped(control, index),
        (matches) => post({ id, index, matches }),
      );
      if (result === null) continue;
      Atomics.store(control, HITS + index, result.hits);
      post({ id, index, result });
    }
    post({ id, done: true });
  } catch (error) {
    post({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
