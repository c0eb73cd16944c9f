'use strict';
// The least a Node.js program can do to search a tree: open, read and close each file of a list
// made beforehand (ripgrep's own list of the files it searches), with one Buffer.indexOf per file.
// No directory walk, no ignore rules, no binary check, no output: every searcher written for Node
// does at least this, so its time over ripgrep's is the best ratio Node can reach on this machine.
// Run as its own process it is issue 19's "Node floor": a bare Node start plus this read floor.
//
// With a third argument (the tree's root) it first lists, with one readdirSync each, every
// directory from that root down to each listed file: the least any searcher that walks the tree
// instead of reading a ready list must add (it lists no directory whose files are all ignored, so
// a real walk lists at least these).
const { closeSync, openSync, readdirSync, readFileSync, readSync } = require('node:fs');
const { dirname } = require('node:path');

const [list, needle, root] = process.argv.slice(2);
const files = readFileSync(list, 'utf8').split('\n').filter(Boolean);
if (root !== undefined) {
  const dirs = new Set();
  for (const file of files) {
    for (let dir = dirname(file); dir.length >= root.length && !dirs.has(dir); dir = dirname(dir)) dirs.add(dir);
  }
  let entries = 0;
  for (const dir of dirs) entries += readdirSync(dir, { withFileTypes: true }).length;
  if (entries === 0) process.exitCode = 1;
}
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
