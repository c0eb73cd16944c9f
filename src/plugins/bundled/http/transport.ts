/**
 * The one HTTP transport of the domain (Node's fetch): per-attempt timeout, a byte cap on the body,
 * and retries on transport errors, timeouts, body read failures and 5xx only. Retries respect the
 * call deadline: no attempt starts and no delay runs past it, and each attempt's timeout is cut to
 * the time left. Errors never quote header values or bodies.
 */
import { AhError } from '../../../errors.js';
import type { RequestPlan } from './plan.js';

export interface HttpResponse {
  status: number;
  url: string;
  headers: Record<string, string>;
  body: string;
  truncated: boolean;
  attempts: number;
  durationMs: number;
}

export interface SendContext {
  signal: AbortSignal;
  deadline: number;
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

class Timeout extends Error {}

function errorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}

function causeText(error: unknown): string {
  const inner = (error as { cause?: unknown }).cause ?? error;
  const message = inner instanceof Error ? inner.message : String(inner);
  const code = errorCode(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

function transportError(error: unknown, plan: RequestPlan, timeoutMs: number, phase: 'request' | 'read'): AhError {
  const where = `${plan.method} ${plan.url.origin}${plan.url.pathname}`;
  if (error instanceof Timeout) {
    return new AhError({
      code: 'HTTP_REQUEST_FAILED',
      message: `${where} timed out after ${timeoutMs} ms`,
      hint: 'Raise timeout_secs (and context.timeout_ms), or check the server.',
      retryable: true,
      domain: 'http',
      operation: 'http.send',
    });
  }
  const code = errorCode(error);
  if (TLS_CODES.has(code)) {
    return new AhError({
      code: 'HTTP_REQUEST_FAILED',
      message: `${where}: the server's TLS certificate is not trusted`,
      cause: causeText(error),
      hint: 'ah never skips certificate checks. Use a certificate from a trusted CA, or start ah with NODE_EXTRA_CA_CERTS naming your CA file.',
      domain: 'http',
      operation: 'http.send',
    });
  }
  if (phase === 'read') {
    return new AhError({
      code: 'HTTP_RESPONSE_READ_FAILED',
      message: `${where}: reading the response body failed`,
      cause: causeText(error),
      retryable: true,
      domain: 'http',
      operation: 'http.read',
    });
  }
  return new AhError({
    code: 'HTTP_REQUEST_FAILED',
    message: `${where}: the request failed`,
    cause: causeText(error),
    hint: code === 'ECONNREFUSED' ? 'Nothing listens at that address; is the server running?' : undefined,
    retryable: true,
    domain: 'http',
    operation: 'http.send',
  });
}

function headerObject(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  });
  return out;
}

async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<{ text: string; truncated: boolean }> {
  if (!body) return { text: '', truncated: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.length > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - total));
      total = maxBytes;
      truncated = true;
      // Stop the transfer: an endless body must not be read past the cap.
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    total += value.length;
  }
  // A cut body may end inside a UTF-8 sequence: the streaming decoder drops the partial character.
  const decoder = new TextDecoder('utf-8');
  const text = decoder.decode(Buffer.concat(chunks, total), { stream: truncated });
  return { text, truncated };
}

async function attempt(plan: RequestPlan, timeoutMs: number, outer: AbortSignal): Promise<Omit<HttpResponse, 'attempts' | 'durationMs'>> {
  if (outer.aborted) throw outer.reason;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Timeout()), timeoutMs);
  const onAbort = () => controller.abort(outer.reason);
  outer.addEventListener('abort', onAbort, { once: true });
  let phase: 'request' | 'read' = 'request';
  try {
    const response = await fetch(plan.url, {
      method: plan.method,
      headers: plan.headers,
      ...(plan.body !== undefined ? { body: plan.body } : {}),
      redirect: 'follow',
      signal: controller.signal,
    });
    phase = 'read';
    const { text, truncated } = await readCapped(response.body, plan.maxBytes);
    return { status: response.status, url: response.url || plan.url.href, headers: headerObject(response.headers), body: text, truncated };
  } catch (error) {
    if (outer.aborted) throw outer.reason;
    throw transportError(controller.signal.reason instanceof Timeout ? controller.signal.reason : error, plan, timeoutMs, phase);
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onAbort);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    if (ms <= 0) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Sends a plan with its retries; a 5xx after the last attempt is a response, not an error. */
export async function send(plan: RequestPlan, ctx: SendContext): Promise<HttpResponse> {
  const started = performance.now();
  let last: Omit<HttpResponse, 'attempts' | 'durationMs'> | AhError | undefined;
  let attempts = 0;
  for (;;) {
    const remaining = ctx.deadline - Date.now();
    if (remaining <= 0) break;
    attempts += 1;
    const timeoutMs = Math.max(1, Math.min(plan.timeoutMs, Math.floor(remaining)));
    try {
      last = await attempt(plan, timeoutMs, ctx.signal);
      if (last.status < 500) break;
    } catch (error) {
      if (!(error instanceof AhError) || !error.retryable || ctx.signal.aborted) throw error;
      last = error;
    }
    if (attempts > plan.retry) break;
    if (Date.now() + plan.retryDelayMs >= ctx.deadline) break;
    await sleep(plan.retryDelayMs, ctx.signal);
  }
  if (last === undefined) {
    throw new AhError({
      code: 'HTTP_REQUEST_FAILED',
      message: 'no time was left to send the request',
      hint: 'Raise context.timeout_ms.',
      retryable: true,
      domain: 'http',
      operation: 'http.send',
    });
  }
  if (last instanceof AhError) throw last;
  return { ...last, attempts, durationMs: Math.round(performance.now() - started) };
}
