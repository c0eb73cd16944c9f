// Measurement helpers over a connected SDK v2 client.

/**
 * Per-request timeout for every bench call: the SDK's 60 s default ended whole runs when a slow
 * peer answered late on a loaded machine; a late answer is a slow sample, not a failure.
 */
export const SLOW = { timeout: 600_000 };
/** A listTools that asks the server whatever the client's cache holds (SEP-2549 hints ignored). */
export const FULL_LIST = { ...SLOW, cacheMode: 'bypass' };
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

/** Latencies of up to `count` sequential calls (at most `budgetMs` of them). */
export async function latencies(call, count, budgetMs = 8000) {
  const out = [];
  const started = performance.now();
  for (let i = 0; i < count && performance.now() - started < budgetMs; i += 1) {
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
  return { p50: round(percentile(out, 50), 3), p99: round(percentile(out, 99), 3) };
}

/**
 * Calls per second with `inFlight` concurrent workers issuing up to `total` calls; a slow server
 * is measured for at most `budgetMs` so one peer cannot stall the whole run.
 */
export async function throughput(call, inFlight, total, budgetMs = 5000) {
  let issued = 0;
  const started = performance.now();
  const samples = [];
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (issued < total && performance.now() - started < budgetMs) {
        issued += 1;
        const t = performance.now();
        await call();
        samples.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    calls: samples.length,
    callsPerSecond: round(samples.length / seconds, 0),
    p50: round(percentile(samples, 50), 2),
    p99: round(percentile(samples, 99), 2),
  };
}
