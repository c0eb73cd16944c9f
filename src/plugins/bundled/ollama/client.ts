/**
 * One Ollama generation, streamed: Ollama sends NDJSON chunks while it generates, each chunk
 * becomes a progress message, and the caller gets the whole answer once `done` arrives. The
 * timeout is cut to the call deadline, cancellation aborts the request, and the stream is bounded.
 */
import type { CommandContext } from '../../../catalog/descriptor.js';
import { AhError } from '../../../errors.js';
import type { OllamaOutput } from './shared.js';

const MAX_STREAM_BYTES = 33_554_432;
const MAX_ERROR_BYTES = 65_536;

export interface Generation {
  command: 'ask' | 'chat';
  model: string;
  baseUrl: string;
  timeoutSecs: number;
  /** Request body without `stream`. */
  body: Record<string, unknown>;
}

class Timeout extends Error {}

const fail = (code: string, message: string, extra: { cause?: string; hint?: string; retryable?: boolean } = {}) =>
  new AhError({ code, message, ...extra, domain: 'ollama' });

function endpoint(baseUrl: string, path: string): URL {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw new AhError({
      code: 'INVALID_ARGUMENT',
      message: 'base_url is not an absolute URL',
      hint: `Use e.g. http://127.0.0.1:11434.`,
      domain: 'ollama',
    });
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new AhError({ code: 'INVALID_ARGUMENT', message: 'base_url must be http:// or https://', domain: 'ollama' });
  }
  base.pathname = `${base.pathname.replace(/\/+$/, '')}${path}`;
  return base;
}

const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const str = (v: unknown) => (typeof v === 'string' ? v : null);

async function readCapped(body: ReadableStream<Uint8Array> | null, max: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = max - total;
    chunks.push(value.subarray(0, room));
    total += Math.min(room, value.length);
    if (total >= max) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function apiError(response: Response, model: string): Promise<AhError> {
  const text = await readCapped(response.body, MAX_ERROR_BYTES).catch(() => '');
  let detail = text.trim().slice(0, 1000);
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === 'string') detail = parsed.error;
  } catch {
    // Not JSON: keep the text.
  }
  const notPulled = response.status === 404 && /not found/i.test(detail);
  return fail(
    'OLLAMA_API_FAILED',
    notPulled ? `model '${model}' is not available on the Ollama server` : `Ollama answered HTTP ${response.status}`,
    {
      cause: detail || `HTTP ${response.status}`,
      hint: notPulled ? `Pull it first: ollama pull ${model}` : undefined,
      retryable: response.status >= 500,
    },
  );
}

export async function generate(g: Generation, ctx: CommandContext): Promise<OllamaOutput> {
  const url = endpoint(g.baseUrl, g.command === 'ask' ? '/api/generate' : '/api/chat');
  const left = ctx.deadline - Date.now();
  const timeoutMs = Math.max(1, Math.min(g.timeoutSecs * 1000, Number.isFinite(left) ? left : Number.POSITIVE_INFINITY));
  if (ctx.signal.aborted) throw ctx.signal.reason;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Timeout()), timeoutMs);
  const onAbort = () => controller.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  let response: Response;
  try {
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
        body: JSON.stringify({ ...g.body, stream: true }),
        signal: controller.signal,
      });
    } catch (error) {
      throw transportFailure(error, controller, ctx, url, timeoutMs);
    }
    if (!response.ok) throw await apiError(response, g.model);
    try {
      return await consume(g, response, ctx);
    } catch (error) {
      if (error instanceof AhError) throw error;
      throw transportFailure(error, controller, ctx, url, timeoutMs);
    }
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

function transportFailure(error: unknown, controller: AbortController, ctx: CommandContext, url: URL, timeoutMs: number): unknown {
  if (ctx.signal.aborted) return ctx.signal.reason;
  if (controller.signal.reason instanceof Timeout) {
    return fail('OLLAMA_HTTP_FAILED', `Ollama at ${url.origin} did not answer within ${timeoutMs} ms`, {
      hint: 'Raise timeout_secs (and context.timeout_ms); a first call also loads the model.',
      retryable: true,
    });
  }
  const inner = (error as { cause?: { code?: string; message?: string } }).cause;
  return fail('OLLAMA_HTTP_FAILED', `cannot reach Ollama at ${url.origin}`, {
    cause: inner?.message ?? (error instanceof Error ? error.message : String(error)),
    hint: inner?.code === 'ECONNREFUSED' ? 'Is Ollama running? Start it with `ollama serve`, or pass base_url.' : undefined,
    retryable: true,
  });
}

/** Reads NDJSON chunks until `done`; every chunk adds to the answer and may report progress. */
async function consume(g: Generation, response: Response, ctx: CommandContext): Promise<OllamaOutput> {
  if (!response.body) throw fail('OLLAMA_RESPONSE_INVALID', 'Ollama sent an empty response');
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let bytes = 0;
  let answer = '';
  let chunks = 0;
  let final: Record<string, unknown> | undefined;
  const handle = (line: string) => {
    if (line.trim() === '' || final) return;
    let chunk: Record<string, unknown>;
    try {
      chunk = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw fail('OLLAMA_RESPONSE_INVALID', 'Ollama sent a line that is not JSON', { cause: line.slice(0, 200) });
    }
    if (chunk === null || typeof chunk !== 'object' || Array.isArray(chunk))
      throw fail('OLLAMA_RESPONSE_INVALID', 'Ollama sent a chunk that is not an object');
    if (typeof chunk.error === 'string')
      throw fail('OLLAMA_API_FAILED', 'Ollama reported an error during the generation', { cause: chunk.error });
    const piece = g.command === 'ask' ? chunk.response : (chunk.message as { content?: unknown } | undefined)?.content;
    if (piece !== undefined && typeof piece !== 'string')
      throw fail('OLLAMA_RESPONSE_INVALID', `Ollama sent a chunk without ${g.command === 'ask' ? 'response' : 'message.content'} text`);
    if (piece === undefined && chunk.done !== true)
      throw fail('OLLAMA_RESPONSE_INVALID', `Ollama sent a chunk without ${g.command === 'ask' ? 'response' : 'message.content'}`);
    answer += piece ?? '';
    chunks += 1;
    if (chunk.done === true) final = chunk;
    // Every chunk is reported; the surfaces decide how often to pass progress on (MCP: rate-limited).
    ctx.progress(`${g.model}: ${chunks} chunks, ${answer.length} characters so far`);
  };
  while (!final) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (bytes > MAX_STREAM_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw fail('OLLAMA_RESPONSE_INVALID', `Ollama's answer is larger than ${MAX_STREAM_BYTES} bytes`);
    }
    pending += decoder.decode(value, { stream: true });
    let nl = pending.indexOf('\n');
    while (nl !== -1) {
      handle(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      nl = pending.indexOf('\n');
    }
  }
  pending += decoder.decode();
  if (!final) handle(pending);
  if (!final) {
    await reader.cancel().catch(() => undefined);
    throw fail('OLLAMA_RESPONSE_INVALID', 'Ollama ended the answer before it was done', {
      cause: `${chunks} chunks received, none with done: true`,
    });
  } else {
    await reader.cancel().catch(() => undefined);
  }
  return {
    command: g.command,
    model: str(final.model) ?? g.model,
    response: answer,
    created_at: str(final.created_at),
    done: typeof final.done === 'boolean' ? final.done : null,
    done_reason: str(final.done_reason),
    metrics: {
      total_duration: int(final.total_duration),
      load_duration: int(final.load_duration),
      prompt_eval_count: int(final.prompt_eval_count),
      prompt_eval_duration: int(final.prompt_eval_duration),
      eval_count: int(final.eval_count),
      eval_duration: int(final.eval_duration),
    },
  };
}
