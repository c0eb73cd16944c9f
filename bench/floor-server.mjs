// The floor: the smallest useful SDK v2 server, one `read` tool returning text + structuredContent.
// `node bench/floor-server.mjs` serves stdio; `--http PORT` serves Streamable HTTP on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { READ_TOOL as tool, serveHttpSessions } from './floor-tool.mjs';

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
  serveHttpSessions(
    Number(process.argv[httpIndex + 1]),
    (onsessioninitialized) => new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized }),
    makeServer,
  );
}
