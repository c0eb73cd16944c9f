// Measurement helpers over a connected SDK v2 client.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { percentile, round } from './lib.mjs';

export async function connectStdio(command, args, env) {
  const transport = new StdioClientTransport({ command, args, env, stderr: 'ignore' });
  const client = new Client({ name: 'ah-bench', version: '1' });
  const started = performance.now();
  await client.connect(transport);
  return { client, transport, startMs: performance.now() - started, pid: transport.pid };
}

export async function connectHttp(url) {
  const client = new Client({ name: 'ah-bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Latencies of `count` sequential calls. */
export async function latencies(call, count) {
  const out = [];
  for (let i = 0; i < count; i += 1) {
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
  return { p50: round(percentile(out, 50), 3), p99: round(percentile(out, 99), 3) };
}

/** Calls per second with `inFlight` concurrent workers issuing `total` calls. */
export async function throughput(call, inFlight, total) {
  let issued = 0;
  const started = performance.now();
  const samples = [];
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (issued < total) {
        issued += 1;
        const t = performance.now();
        await call();
        samples.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { callsPerSecond: round(total / seconds, 0), p50: round(percentile(samples, 50), 2), p99: round(percentile(samples, 99), 2) };
}
