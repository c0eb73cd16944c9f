'use strict';
// The Node floor (read-floor.cjs) on two threads: what a second thread can add to a search in one
// Node process on this machine, at best. A worker thread is started before anything else and
// both threads claim chunks of CHUNK files of the same list from one shared counter, so each file
// is read once, the faster thread takes more, and the worker helps from the moment it is online.
// No walk, no ignore rules, no ordering of results: a real searcher only adds to this. Run as its
// own process: argv is the list and the literal, as for read-floor.cjs; prints how many files
// hold the literal.
const { closeSync, openSync, readFileSync, readSync } = require('node:fs');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');

/** Files per claim: small enough to balance the threads, large enough to keep claims rare. */
const CHUNK = 16;

function readShare(list, needle, counter) {
  const files = readFileSync(list, 'utf8').split('\n').filter(Boolean);
  const pattern = Buffer.from(needle);
  const buffer = Buffer.allocUnsafe((1 << 20) + 1);
  let holding = 0;
  for (let start = Atomics.add(counter, 0, CHUNK); start < files.length; start = Atomics.add(counter, 0, CHUNK)) {
    const end = Math.min(files.length, start + CHUNK);
    for (let i = start; i < end; i += 1) {
      const fd = openSync(files[i], 'r');
      const n = readSync(fd, buffer, 0, buffer.length, null);
      closeSync(fd);
      if (buffer.subarray(0, n).indexOf(pattern) !== -1) holding += 1;
    }
  }
  return holding;
}

if (isMainThread) {
  const [list, needle = 'createRequire'] = process.argv.slice(2);
  const shared = new SharedArrayBuffer(4);
  const worker = new Worker(__filename, { workerData: { list, needle, shared } });
  const mine = readShare(list, needle, new Int32Array(shared));
  worker.once('message', (theirs) => process.stdout.write(`${mine + theirs}\n`));
  worker.once('error', (error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exitCode = 1;
  });
} else {
  parentPort.postMessage(readShare(workerData.list, workerData.needle, new Int32Array(workerData.shared)));
}
