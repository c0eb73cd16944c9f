// A minimal JSON-RPC client over a stdio MCP server: newline-delimited messages, no validation.
// It times what the server does for a request (plus the pipe and one JSON.parse), without the
// SDK client's own work on the answer (schema validation and caching of a tools/list, for one).
import { spawn } from 'node:child_process';

export async function connectRaw(command, args, env) {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let pending = [];
  child.stdout.on('data', (chunk) => {
    // Only the new chunk is searched for line ends; earlier chunks of a long line wait in `pending`.
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, end));
      const line = Buffer.concat(pending);
      pending = [];
      start = end + 1;
      if (line.length === 0) continue;
      const message = JSON.parse(line.toString('utf8'));
      const done = waiting.get(message.id);
      if (done) {
        waiting.delete(message.id);
        done({ message, bytes: line.length });
      }
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  let nextId = 1;
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ah-bench-raw', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    pid: child.pid,
    request,
    close: () =>
      new Promise((resolve) => {
        child.once('close', resolve);
        child.stdin.end();
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}
