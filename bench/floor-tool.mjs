import { createServer as createHttpServer } from 'node:http';

// The one tool every floor server publishes: read a UTF-8 file, result as text + structuredContent.
export const READ_TOOL = {
  name: 'read',
  description: 'Read a UTF-8 file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
  outputSchema: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'], additionalProperties: false },
};

/**
 * The floors' Streamable HTTP server: one SDK transport per session (`makeTransport(onSession)`),
 * each connected to a fresh server (`makeServer()`), on 127.0.0.1:`port`.
 */
export function serveHttpSessions(port, makeTransport, makeServer) {
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
      transport = makeTransport((sid) => sessions.set(sid, transport));
      await makeServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(port, '127.0.0.1', () => process.stderr.write(`floor listening on ${http.address().port}\n`));
}
