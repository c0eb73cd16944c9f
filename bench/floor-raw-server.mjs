// The transport floor: no SDK at all. Newline-delimited JSON-RPC over stdio (or one JSON response
// per POST over HTTP with `--http PORT`), answering initialize, tools/list and tools/call for the
// same `read` tool. No validation, no session bookkeeping beyond an id: what the pipe or the
// socket and JSON.parse/stringify cost, which no real server can beat.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { READ_TOOL } from './floor-tool.mjs';

const PROTOCOL = '2025-11-25';

/** The response to one JSON-RPC message, or undefined for notifications. */
async function answer(message) {
  if (message.id === undefined) return undefined;
  const reply = (result) => ({ jsonrpc: '2.0', id: message.id, result });
  switch (message.method) {
    case 'initialize':
      return reply({
        protocolVersion: message.params?.protocolVersion ?? PROTOCOL,
        capabilities: { tools: {} },
        serverInfo: { name: 'floor-raw', version: '1.0.0' },
      });
    case 'tools/list':
      return reply({ tools: [READ_TOOL] });
    case 'tools/call': {
      const data = { content: await readFile(message.params.arguments.path, 'utf8') };
      return reply({ content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data });
    }
    case 'ping':
      return reply({});
    default:
      return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'method not found' } };
  }
}

process.on('SIGTERM', () => process.exit(0));

const httpIndex = process.argv.indexOf('--http');
if (httpIndex === -1) {
  let buffer = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim() !== '') {
        void answer(JSON.parse(line)).then((out) => {
          if (out) process.stdout.write(`${JSON.stringify(out)}\n`);
        });
      }
      newline = buffer.indexOf('\n');
    }
  });
  process.stdin.on('end', () => process.exit(0));
} else {
  const sessions = new Set();
  const http = createHttpServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const message = JSON.parse(Buffer.concat(chunks).toString());
      let session = req.headers['mcp-session-id'];
      if (message.method === 'initialize') {
        session = randomUUID();
        sessions.add(session);
      } else if (!sessions.has(session)) {
        res.writeHead(404).end();
        return;
      }
      const out = await answer(message);
      if (!out) {
        res.writeHead(202, { 'mcp-session-id': session }).end();
        return;
      }
      const body = JSON.stringify(out);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'mcp-session-id': session });
      res.end(body);
    });
  });
  http.listen(Number(process.argv[httpIndex + 1]), '127.0.0.1', () => process.stderr.write(`floor listening on ${http.address().port}\n`));
}
