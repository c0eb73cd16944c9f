// The floor: the smallest useful SDK v2 server, one `read` tool returning text + structuredContent.
// `node bench/floor-server.mjs` serves stdio; `--http PORT` serves Streamable HTTP on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { READ_TOOL as tool } from './floor-tool.mjs';

function makeServer() {
  const server = new Server({ name: 'floor', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', async () => ({ tools: [tool] }));
  server.setRequestHandler('tools/call', async (request) => {
    const content = await readFile(request.params.arguments.path, 'utf8');
    const data = { content };
    return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
  });
  return server;
}

// A clean exit on SIGTERM (lets --cpu-prof write its profile when profiling the floor).
process.on('SIGTERM', () => process.exit(0));

const httpIndex = process.argv.indexOf('--http');
if (httpIndex === -1) {
  serveStdio(() => makeServer());
} else {
  const sessions = new Map();
  const http = createHttpServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      if (id) {
        res.writeHead(404).end();
        return;
      }
      transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      await makeServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(Number(process.argv[httpIndex + 1]), '127.0.0.1', () => process.stderr.write(`floor listening on ${http.address().port}\n`));
}
