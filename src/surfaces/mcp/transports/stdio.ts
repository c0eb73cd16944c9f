/**
 * stdio transport: the client owns this process. Stdin EOF/close, a dead parent (checked by a
 * watchdog) and signals all enter the one shutdown path.
 */
import { serveStdio as sdkServeStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { McpCore } from '../call.js';
import type { Lifecycle } from '../lifecycle.js';
import { createServer, preserializedResult } from '../server.js';

const WATCHDOG_MS = 1000;

function parentGone(originalParent: number): boolean {
  if (process.ppid !== originalParent) return true;
  try {
    process.kill(originalParent, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Lets the wire transport write results that were serialized ahead (the tools/list result, once per
 * catalog revision) as they are, instead of stringifying them per request. Everything else, and
 * any result the SDK rebuilt on its way out, goes through the SDK's own send.
 */
function writePreserializedResults(transport: StdioServerTransport, stdout: NodeJS.WritableStream): void {
  const send = transport.send.bind(transport);
  const close = transport.close.bind(transport);
  let closed = false;
  transport.close = () => {
    closed = true;
    return close();
  };
  transport.send = (message) => {
    const response = message as { result?: unknown; id?: unknown };
    const raw = response.result === undefined ? undefined : preserializedResult(response.result);
    if (raw === undefined || (typeof response.id !== 'number' && typeof response.id !== 'string')) return send(message);
    if (closed) return Promise.reject(new Error('StdioServerTransport is closed'));
    // Same text as the SDK's JSON.stringify of {result, jsonrpc, id}, one line.
    const line = `{"result":${raw},"jsonrpc":"2.0","id":${JSON.stringify(response.id)}}\n`;
    return new Promise<void>((resolve, reject) => {
      const onError = (error: Error) => {
        stdout.off('drain', onDrain);
        reject(error);
      };
      const onDrain = () => {
        stdout.off('error', onError);
        resolve();
      };
      stdout.once('error', onError);
      if (stdout.write(line)) {
        stdout.off('error', onError);
        resolve();
      } else stdout.once('drain', onDrain);
    });
  };
}

export async function serveStdio(core: McpCore, lifecycle: Lifecycle): Promise<void> {
  const servers = new Set<ReturnType<typeof createServer>>();
  const transport = new StdioServerTransport(process.stdin, process.stdout);
  writePreserializedResults(transport, process.stdout);
  const handle = sdkServeStdio(
    () => {
      const server = createServer(core);
      servers.add(server);
      return server;
    },
    {
      transport,
      onerror: (error) => process.stderr.write(`ah: mcp transport: ${error.message}\n`),
    },
  );
  const unsubscribe = core.catalog.onChange(() => {
    for (const server of servers) server.sendToolListChanged().catch(() => undefined);
  });
  lifecycle.onShutdown(async () => {
    unsubscribe();
    await handle.close();
  });
  // The SDK's stdio transport may not end the process on EOF by itself; make it explicit.
  process.stdin.once('end', () => void lifecycle.shutdown('stdin-eof'));
  process.stdin.once('close', () => void lifecycle.shutdown('stdin-close'));
  process.stdout.on('error', (error) => void lifecycle.fail(error));
  const parent = process.ppid;
  const watchdog = setInterval(() => {
    if (parentGone(parent)) void lifecycle.shutdown('parent-exit');
  }, WATCHDOG_MS);
  watchdog.unref();
  lifecycle.onShutdown(() => clearInterval(watchdog));
}
