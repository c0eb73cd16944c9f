'use strict';
// The least a Node.js program can do to search a tree: open, read and close each file of a list
// made beforehand (ripgrep's own list of the files it searches), with one Buffer.indexOf per file.
// No directory walk, no ignore rules, no binary check, no output: every searcher written for Node
// does at least this, so its time over ripgrep's is the best ratio Node can reach on this machine.
// Run as its own process it is issue 19's "Node floor": a bare Node start plus this read floor.
const { closeSync, openSync, readFileSync, readSync } = require('node:fs');

const [list, needle] = process.argv.slice(2);
const files = readFileSync(list, 'utf8').split('\n').filter(Boolean);
const pattern = Buffer.from(needle ?? 'createRequire');
const buffer = Buffer.allocUnsafe((1 << 20) + 1);
let holding = 0;
for (const file of files) {
  const fd = openSync(file, 'r');
  const n = readSync(fd, buffer, 0, buffer.length, null);
  closeSync(fd);
  if (buffer.subarray(0, n).indexOf(pattern) !== -1) holding += 1;
}
process.stdout.write(`${holding}\n`);
