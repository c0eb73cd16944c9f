// A lean Streamable HTTP client: node:http with keep-alive sockets, no validation, no fetch. It
// answers "how many calls can this server take" when the SDK client (undici fetch, web streams,
// zod) would use a whole core per call stream itself and so set the pace for every server alike.
// Answers may be one JSON body or an SSE stream; the message with the request's id is returned.
import { Agent, request as httpRequest } from 'node:http';

function post(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The JSON-RPC answer to `id` in a JSON body or in the `data:` lines of an SSE stream. */
function answerOf(reply, id) {
  if (reply.status !== 200) throw new Error(`HTTP ${reply.status}: ${reply.text.slice(0, 200)}`);
  if (String(reply.headers['content-type']).startsWith('application/json')) return JSON.parse(reply.text);
  for (const line of reply.text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '') continue;
    const message = JSON.parse(data);
    if (message.id === id) return message;
  }
  throw new Error(`no answer to ${id} in: ${reply.text.slice(0, 200)}`);
}

export async function connectRawHttp(url) {
  // Node 20's agent applies a server's `Keep-Alive: timeout=N` hint only under its own timeout, and
  // has none by default: an idle socket was then reused just as the server closed it (a "socket
  // hang up" ended a full bench run, with the servers' rounds ~5 s apart). 4 s idle ends it first.
  const agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 4000 });
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await post(
    agent,
    url,
    base,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ah-bench-raw', version: '1' } },
    }),
  );
  const answer = answerOf(init, 0);
  const headers = {
    ...base,
    'mcp-session-id': String(init.headers['mcp-session-id']),
    'mcp-protocol-version': answer.result.protocolVersion,
  };
  await post(agent, url, headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  let nextId = 1;
  return {
    async request(method, params) {
      const id = nextId++;
      return answerOf(await post(agent, url, headers, JSON.stringify({ jsonrpc: '2.0', id, method, params })), id);
    },
    close: () => agent.destroy(),
  };
}
