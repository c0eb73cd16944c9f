'use strict';
// A cold Node process that has a running `ah mcp serve --transport http` do one search.text and
// prints its structured result: the least a CLI served by a warm ah process would cost (Node's
// start, an MCP session over loopback, the warm search). It is a what-if for issue 19, not a
// client of ah's contract: no validation, no rendering, no fallback when the server is gone.
// argv: the /mcp URL, the tree, the pattern, 'regex' or 'literal'.
const { Agent, request } = require('node:http');

const [url, tree, pattern, mode] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true });

function post(headers, message) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(message));
  });
}

/** The answer to `id` from a JSON body or from the data lines of an SSE stream. */
function answer(reply, id) {
  const bodies = reply.text.startsWith('{')
    ? [reply.text]
    : reply.text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5));
  for (const body of bodies) {
    if (body.trim() === '') continue;
    const message = JSON.parse(body);
    if (message.id === id) return message;
  }
  throw new Error(`no answer to ${id}: ${reply.text.slice(0, 300)}`);
}

async function main() {
  const init = await post(
    {},
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ah-bench-thin', version: '1' } },
    },
  );
  const session = {
    'mcp-session-id': String(init.headers['mcp-session-id']),
    'mcp-protocol-version': answer(init, 0).result.protocolVersion,
  };
  await post(session, { jsonrpc: '2.0', method: 'notifications/initialized' });
  const args = { pattern, paths: [tree], regex: mode === 'regex', max_bytes: 1048576, context: { cwd: process.cwd() } };
  const reply = answer(
    await post(session, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ah.search.text', arguments: args } }),
    1,
  );
  if (reply.result?.structuredContent === undefined) throw new Error(`no result: ${JSON.stringify(reply).slice(0, 300)}`);
  process.stdout.write(JSON.stringify(reply.result.structuredContent));
  agent.destroy();
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
});
