// The SDK v1 floor (`@modelcontextprotocol/sdk` 1.x): the same one `read` tool and result shape as
// floor-server.mjs (SDK v2), so the two SDK lines can be compared with ah in one run.
// `node bench/floor-v1-server.mjs` serves stdio; `--http PORT` serves Streamable HTTP on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { READ_TOOL, serveHttpSessions } from './floor-tool.mjs';

function makeServer() {
  const server = new Server({ name: 'floor-v1', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [READ_TOOL] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const data = { content: await readFile(request.params.arguments.path, 'utf8') };
    return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
  });
  return server;
}

process.on('SIGTERM', () => process.exit(0));

const httpIndex = process.argv.indexOf('--http');
if (httpIndex === -1) {
  await makeServer().connect(new StdioServerTransport());
} else {
  serveHttpSessions(
    Number(process.argv[httpIndex + 1]),
    (onsessioninitialized) => new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized }),
    makeServer,
  );
}
