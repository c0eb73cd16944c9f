/**
 * stdio transport: the client owns this process. Stdin EOF/close, a dead parent (checked by a
 * watchdog) and signals all enter the one shutdown path.
 */
import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import type { McpCore } from '../call.js';
import type { Lifecycle } from '../lifecycle.js';
import { pidAlive } from '../../../platform/processes.js';
import { createServer } from '../server.js';
import { LineTransport } from './line-transport.js';
import { excerptText, logTransportFailure } from './protocol-errors.js';

const WATCHDOG_MS = 1000;

function parentGone(originalParent: number): boolean {
  return process.ppid !== originalParent || !pidAlive(originalParent);
}

const FLUSH_POLL_MS = 5;

/**
 * Resolves once every byte written to `output` has been handed to fd 1, or the output has failed.
 * A pipe whose reader is slow keeps the rest queued in the process (the kernel holds 64 KiB):
 * exiting then loses it, as a 330 KB tools/list answered just before stdin EOF once lost all but
 * its first 64 KiB. `output` passes its bytes on to process.stdout (claimStdout), so both count.
 */
async function outputFlushed(output: NodeJS.WritableStream): Promise<void> {
  const streams = [output, process.stdout] as Array<{ writableLength?: number; destroyed?: boolean }>;
  while (streams.every((s) => s.destroyed !== true) && streams.some((s) => (s.writableLength ?? 0) > 0)) {
    await new Promise((resolve) => setTimeout(resolve, FLUSH_POLL_MS));
  }
}

/** `output` is the only writer that reaches fd 1 (platform/stdout-claim.ts claimStdout). */
export async function serveStdio(core: McpCore, lifecycle: Lifecycle, output: NodeJS.WritableStream): Promise<void> {
  const servers = new Set<ReturnType<typeof createServer>>();
  const log = core.runtime.log;
  const transport = new LineTransport({
    input: process.stdin,
    output,
    log,
    // However the wire closed (EOF, an output error, the SDK giving up), nobody is left to answer.
    onClosed: (reason) => void lifecycle.shutdown(reason),
  });
  const handle = sdkServeStdio(
    () => {
      const server = createServer(core);
      servers.add(server);
      return server;
    },
    {
      transport,
      onerror: (error) => {
        process.stderr.write(`ah: mcp transport: ${excerptText(error.message)}\n`);
        logTransportFailure(log, { transport: 'stdio', code: 'MCP_TRANSPORT_ERROR', message: error.message });
      },
    },
  );
  const unsubscribe = core.catalog.onChange(() => {
    for (const server of servers) server.sendToolListChanged().catch(() => undefined);
  });
  lifecycle.onShutdown(async () => {
    unsubscribe();
    // Protocol draining, inside the lifecycle's one budget: no new requests are read, the ones
    // already read get their answers (calls cancelled by the shutdown answer at once), the
    // connection closes, and the answers leave the process before it exits.
    transport.endInput();
    await transport.answered();
    await handle.close();
    await outputFlushed(output);
  });
  // The SDK's stdio transport may not end the process on EOF by itself; make it explicit.
  process.stdin.once('end', () => void lifecycle.shutdown('stdin-eof'));
  process.stdin.once('close', () => void lifecycle.shutdown('stdin-close'));
  output.on('error', (error: Error) => void lifecycle.fail(error));
  const parent = process.ppid;
  const watchdog = setInterval(() => {
    if (parentGone(parent)) void lifecycle.shutdown('parent-exit');
  }, WATCHDOG_MS);
  watchdog.unref();
  lifecycle.onShutdown(() => clearInterval(watchdog));
}
