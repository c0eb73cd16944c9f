/** ask and chat against a loopback server replaying recorded Ollama responses. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandDescriptor } from '../../../catalog/descriptor.js';
import { AhError } from '../../../errors.js';
import { type FakeOllama, startFakeOllama } from '../../../../test/fixtures/ollama/server.js';
import { closedPort } from '../../../../test/fixtures/http/loopback.js';
import { testContext, withDefaults } from '../../../../test/helpers/context.js';
import { ask } from './ask.js';
import { chat } from './chat.js';

let ollama: FakeOllama;
beforeAll(async () => {
  ollama = await startFakeOllama();
});
afterAll(async () => {
  await ollama.close();
});

type Ctx = Parameters<typeof testContext>[0];
async function call(d: CommandDescriptor, args: Record<string, unknown>, ctx: Partial<Ctx> = {}) {
  const context = testContext({ cwd: '/', ...ctx });
  const out = await d.run(withDefaults(d.inputSchema, { base_url: ollama.url, ...args }), context);
  return { out, progress: context.progressMessages };
}
async function failure(d: CommandDescriptor, args: Record<string, unknown>, ctx: Partial<Ctx> = {}): Promise<AhError> {
  const error = await call(d, args, ctx).catch((e: unknown) => e);
  if (error instanceof AhError) return error;
  throw new Error(`expected an AhError, got ${String(error)}`);
}

describe('ollama ask', () => {
  it('streams /api/generate, reports progress and returns the whole answer with metrics', async () => {
    const { out, progress } = await call(ask, { model: 'gemma3', prompt: 'Why is the sky blue?', system: 'Be brief.' });
    expect(ollama.requests.at(-1)).toEqual({
      path: '/api/generate',
      body: { model: 'gemma3', prompt: 'Why is the sky blue?', system: 'Be brief.', stream: true },
    });
    expect(out).toEqual({
      command: 'ask',
      model: 'gemma3',
      response: 'The sky is blue because of Rayleigh scattering.',
      created_at: '2025-10-17T23:14:07.414671Z',
      done: true,
      done_reason: 'stop',
      metrics: {
        total_duration: 174560334,
        load_duration: 101397084,
        prompt_eval_count: 11,
        prompt_eval_duration: 13074791,
        eval_count: 18,
        eval_duration: 52479709,
      },
    });
    expect(progress).toEqual([
      'gemma3: 1 chunks, 7 characters so far',
      'gemma3: 2 chunks, 23 characters so far',
      'gemma3: 3 chunks, 47 characters so far',
      'gemma3: 4 chunks, 47 characters so far',
    ]);
  });

  it('accepts a server that answers with one JSON object', async () => {
    const { out } = await call(ask, { model: 'plain', prompt: 'x' });
    expect(out).toMatchObject({ response: 'whole answer', done: true, metrics: { eval_count: 18 } });
  });
});

describe('ollama chat', () => {
  it('sends system and user messages to /api/chat and joins the reply', async () => {
    const { out } = await call(chat, { model: 'gemma3', message: 'Hello!', system: 'Answer in French.' });
    expect(ollama.requests.at(-1)).toEqual({
      path: '/api/chat',
      body: {
        model: 'gemma3',
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Hello!' },
        ],
        stream: true,
      },
    });
    expect(out).toMatchObject({
      command: 'chat',
      response: 'Bonjour !',
      done: true,
      done_reason: 'stop',
      metrics: { eval_count: 17, prompt_eval_count: 10 },
    });
  });
});

describe('errors', () => {
  it('names a model that is not pulled, with the pull command as hint', async () => {
    const error = await failure(ask, { model: 'missing-model', prompt: 'x' });
    expect(error).toMatchObject({
      code: 'OLLAMA_API_FAILED',
      message: "model 'missing-model' is not available on the Ollama server",
      hint: 'Pull it first: ollama pull missing-model',
    });
    expect(error.detail).toContain('try pulling it first');
  });

  it('maps server errors, bad streams and unreachable servers to their codes', async () => {
    expect(await failure(chat, { model: 'broken', message: 'x' })).toMatchObject({
      code: 'OLLAMA_API_FAILED',
      retryable: true,
      detail: 'llama runner process has terminated: exit status 2',
    });
    expect((await failure(ask, { model: 'midstream', prompt: 'x' })).code).toBe('OLLAMA_API_FAILED');
    expect((await failure(ask, { model: 'garbage', prompt: 'x' })).code).toBe('OLLAMA_RESPONSE_INVALID');
    expect((await failure(chat, { model: 'unfinished', message: 'x' })).message).toContain('before it was done');
    const port = await closedPort();
    const down = await failure(ask, { model: 'gemma3', prompt: 'x', base_url: `http://127.0.0.1:${port}` });
    expect(down).toMatchObject({ code: 'OLLAMA_HTTP_FAILED', retryable: true });
    expect(down.hint).toContain('ollama serve');
    expect((await failure(ask, { model: 'gemma3', prompt: 'x', base_url: 'file:///etc' })).code).toBe('INVALID_ARGUMENT');
  });

  it('caps timeout_secs by the call deadline and aborts on cancel', async () => {
    const timedOut = await failure(ask, { model: 'slow', prompt: 'x', timeout_secs: 120 }, { deadline: Date.now() + 300 });
    expect(timedOut.code).toBe('OLLAMA_HTTP_FAILED');
    expect(timedOut.message).toMatch(/did not answer within \d+ ms/);
    const ctx = testContext({ cwd: '/' });
    const before = ollama.closedEarly();
    const pending = chat.run(withDefaults(chat.inputSchema, { base_url: ollama.url, model: 'slow', message: 'x' }) as never, ctx);
    await expect.poll(() => ollama.requests.filter((r) => r.body.model === 'slow').length).toBe(2);
    ctx.controller.abort(new AhError({ code: 'EXECUTION_CANCELLED', message: 'cancelled' }));
    await expect(pending).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
    await expect.poll(() => ollama.closedEarly()).toBeGreaterThan(before);
  });
});
