/**
 * The ollama plugin end to end: the built `ah` (CLI, MCP stdio, MCP HTTP) against a loopback server
 * replaying recorded Ollama responses. Over MCP a running generation sends progress notifications,
 * and a cancelled call closes the request to Ollama.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOllama, startFakeOllama } from '../fixtures/ollama/server.js';
import { type AhEnv, isolatedEnv, runAh } from '../helpers/cli.js';
import { type HttpServer, startHttpServer } from '../helpers/http.js';
import { connectStdio, type StdioServer } from '../helpers/mcp.js';

interface Result {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, Record<string, unknown>>;
}

let ah: AhEnv;
let ollama: FakeOllama;
let slowOllama: FakeOllama;
let stdio: StdioServer;
let http: HttpServer;

beforeAll(async () => {
  ah = isolatedEnv({}, { suite: true });
  ollama = await startFakeOllama(5);
  // Chunks 700 ms apart: a generation of ~3 s, long enough for the 1 s progress cadence.
  slowOllama = await startFakeOllama(700);
  stdio = await connectStdio([], { env: ah.env });
  http = await startHttpServer({ env: ah.env });
}, 60_000);

afterAll(async () => {
  await stdio?.close();
  await http?.stop();
  await ollama?.close();
  await slowOllama?.close();
});

describe('CLI', () => {
  it('prints the answer, and --json gives the whole result', async () => {
    const text = await runAh(['ollama', 'ask', '--model', 'gemma3', '--prompt', 'Why is the sky blue?', '--base-url', ollama.url], {
      env: ah.env,
    });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe('The sky is blue because of Rayleigh scattering.\n');
    const json = await runAh(
      ['--json', 'ollama', 'chat', '--model', 'gemma3', '--message', 'Hello!', '--system', 'Answer in French.', '--base-url', ollama.url],
      { env: ah.env },
    );
    expect(json.json()).toMatchObject({ command: 'chat', model: 'gemma3', response: 'Bonjour !', done: true, metrics: { eval_count: 17 } });
    expect(ollama.requests.at(-1)?.body).toMatchObject({
      messages: [{ role: 'system' }, { role: 'user', content: 'Hello!' }],
      stream: true,
    });
  });

  it('fails with OLLAMA_API_FAILED for a model that is not pulled', async () => {
    const run = await runAh(['--json', 'ollama', 'ask', '--model', 'missing-model', '--prompt', 'x', '--base-url', ollama.url], {
      env: ah.env,
    });
    expect(run.code).not.toBe(0);
    expect(run.errorJson()).toMatchObject({ code: 'OLLAMA_API_FAILED', domain: 'ollama' });
  });
});

describe('MCP', () => {
  it('sends progress notifications while a generation runs and returns the whole answer', async () => {
    const progress: { progress: number; message?: string }[] = [];
    const result = (await stdio.client.callTool(
      { name: 'ah.ollama.ask', arguments: { model: 'gemma3', prompt: 'Why?', base_url: slowOllama.url } },
      { onprogress: (p: { progress: number; message?: string }) => progress.push(p), timeout: 30_000 },
    )) as Result;
    expect(result.structuredContent).toMatchObject({
      command: 'ask',
      response: 'The sky is blue because of Rayleigh scattering.',
      done_reason: 'stop',
    });
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.every((p) => /^gemma3: \d+ chunks, \d+ characters so far$/.test(p.message ?? ''))).toBe(true);
  });

  it('closes the request to Ollama when the call is cancelled', async () => {
    const before = slowOllama.closedEarly();
    const controller = new AbortController();
    const call = stdio.client.callTool(
      { name: 'ah.ollama.chat', arguments: { model: 'slow', message: 'x', base_url: slowOllama.url } },
      { signal: controller.signal },
    );
    await expect.poll(() => slowOllama.requests.some((r) => r.body.model === 'slow'), { timeout: 10_000 }).toBe(true);
    controller.abort();
    await expect(call).rejects.toThrow();
    await expect.poll(() => slowOllama.closedEarly(), { timeout: 10_000 }).toBeGreaterThan(before);
  });

  it('is stateless over HTTP (no cwd needed) and reports API errors as tool errors', async () => {
    const client = new Client({ name: 'ollama-e2e', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      const ok = (await client.callTool({
        name: 'ah.ollama.chat',
        arguments: { model: 'gemma3', message: 'Hello!', base_url: ollama.url },
      })) as Result;
      expect(ok.structuredContent).toMatchObject({ command: 'chat', response: 'Bonjour !' });
      const broken = (await client.callTool({
        name: 'ah.ollama.ask',
        arguments: { model: 'broken', prompt: 'x', base_url: ollama.url },
      })) as Result;
      expect(broken.isError).toBe(true);
      expect(broken._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'OLLAMA_API_FAILED', domain: 'ollama', retryable: true });
      const { tools } = await client.listTools();
      const ask = tools.find((t) => t.name === 'ah.ollama.ask');
      expect(ask?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false, openWorldHint: true });
      expect(ask?._meta?.['dev.aihelper/risk']).toMatchObject({ level: 'high', reversibility: 'no' });
    } finally {
      await client.close();
    }
  });
});
