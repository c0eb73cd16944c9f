/**
 * /secrets/setup/capability (mint) and /secrets/setup (form, submission). The server's Host/Origin
 * guard has already run. Nothing here logs: capability values and form bodies must never reach a
 * log, and error replies name codes and field names, never submitted values.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAhError } from '../../../errors.js';
import { newNonce, renderError, renderForm, renderSuccess, setupHeaders } from '../../../secrets/page.js';
import { createSetupService, invalidCapability, SubmissionError } from '../../../secrets/setup.js';
import type { VaultStore } from '../../../secrets/types.js';
import { BodyTooLarge, readBody, sendJson } from './local-guard.js';

export const SETUP_PATH = '/secrets/setup';
export const CAPABILITY_PATH = '/secrets/setup/capability';

const STATUS: Readonly<Record<string, number>> = {
  VAULT_SETUP_CAPABILITY_INVALID: 403,
  VAULT_SETUP_REQUEST_INVALID: 400,
  VAULT_SETUP_SUBMISSION_INVALID: 400,
  VAULT_INVALID_SECRET: 400,
  VAULT_SECRET_NOT_FOUND: 404,
  VAULT_SECRET_EXISTS: 409,
  VAULT_NOT_INITIALIZED: 409,
  VAULT_BUSY: 503,
  VAULT_KEY_UNAVAILABLE: 503,
};

interface Failure {
  status: number;
  code: string;
  message: string;
  hint?: string;
  fields?: readonly string[];
}

export interface SecretsRouteOptions {
  vault: () => VaultStore;
  /** The bound port, read per request (it is known only after listen). */
  port: () => number;
  now?: () => number;
}

type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

function wantsHtml(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').toLowerCase().includes('text/html');
}

function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function toFailure(error: unknown): Failure {
  if (!isAhError(error)) {
    // Only the type: a message of an unexpected error is not vetted to be free of secret material.
    process.stderr.write(`ah: secrets setup: unexpected ${error instanceof Error ? error.name : typeof error}\n`);
    return { status: 500, code: 'INTERNAL_ERROR', message: 'the request failed' };
  }
  const failure: Failure = { status: STATUS[error.code] ?? 500, code: error.code, message: error.message };
  if (error.hint !== undefined) failure.hint = error.hint;
  if (error instanceof SubmissionError && error.fields.length > 0) failure.fields = error.fields;
  return failure;
}

function sendHtml(res: ServerResponse, status: number, html: string, nonce: string): void {
  res.writeHead(status, {
    ...setupHeaders(nonce),
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(html)),
  });
  res.end(html);
}

function fail(req: IncomingMessage, res: ServerResponse, failure: Failure, extraHeaders: Record<string, string> = {}): void {
  if (wantsHtml(req) && failure.status !== 405) {
    const nonce = newNonce();
    sendHtml(res, failure.status, renderError(failure.code, failure.message, nonce), nonce);
    return;
  }
  const { status, ...error } = failure;
  sendJson(res, status, { error }, { ...setupHeaders(), ...extraHeaders });
}

async function body(req: IncomingMessage): Promise<Buffer | Failure> {
  try {
    return await readBody(req);
  } catch (error) {
    if (error instanceof BodyTooLarge) return { status: 413, code: 'REQUEST_TOO_LARGE', message: 'the request body is larger than 1 MiB' };
    return { status: 400, code: 'INVALID_REQUEST', message: 'the request body could not be read' };
  }
}

/** The capability of `?capability=…`, when the query is exactly that one pair. */
function capabilityOf(url: URL): string | undefined {
  const pairs = [...url.searchParams];
  if (pairs.length !== 1 || pairs[0]?.[0] !== 'capability') return undefined;
  return pairs[0][1];
}

export function createSecretsRoute(options: SecretsRouteOptions): Route {
  const service = createSetupService(options.vault, options.now ? { now: options.now } : {});
  const methodNotAllowed = (req: IncomingMessage, res: ServerResponse, allow: string) =>
    fail(req, res, { status: 405, code: 'METHOD_NOT_ALLOWED', message: `use ${allow} on this route` }, { allow });

  async function mint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (mediaType(req) !== 'application/json') {
      fail(req, res, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'the capability request must be application/json' });
      return;
    }
    const raw = await body(req);
    if (!Buffer.isBuffer(raw)) return fail(req, res, raw);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      return fail(req, res, { status: 400, code: 'VAULT_SETUP_REQUEST_INVALID', message: 'the body is not valid JSON' });
    }
    try {
      const { capability } = await service.mint(parsed);
      const setupUrl = `http://127.0.0.1:${options.port()}${SETUP_PATH}?capability=${capability}`;
      sendJson(res, 201, { setup_url: setupUrl }, setupHeaders());
    } catch (error) {
      fail(req, res, toFailure(error));
    }
  }

  function show(req: IncomingMessage, res: ServerResponse, url: URL): void {
    try {
      const capability = capabilityOf(url) ?? '';
      const target = service.inspect(capability);
      const nonce = newNonce();
      sendHtml(res, 200, renderForm(target, capability, nonce), nonce);
    } catch (error) {
      fail(req, res, toFailure(error));
    }
  }

  async function submit(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const capability = capabilityOf(url);
    if (capability === undefined) return fail(req, res, toFailure(invalidCapability()));
    if (mediaType(req) !== 'application/x-www-form-urlencoded') {
      fail(req, res, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'the form must be application/x-www-form-urlencoded' });
      return;
    }
    const raw = await body(req);
    if (!Buffer.isBuffer(raw)) return fail(req, res, raw);
    try {
      const { target, secret } = await service.submit(capability, new URLSearchParams(raw.toString('utf8')));
      const metadata = { id: secret.id, kind: secret.kind, label: secret.label, description: secret.description };
      if (wantsHtml(req)) {
        const nonce = newNonce();
        sendHtml(res, 200, renderSuccess(target, metadata, nonce), nonce);
      } else {
        sendJson(res, 200, { status: 'saved', action: target.action, secret: metadata }, setupHeaders());
      }
    } catch (error) {
      fail(req, res, toFailure(error));
    }
  }

  return async (req, res, url) => {
    if (url.pathname === CAPABILITY_PATH) {
      if (req.method === 'POST') await mint(req, res);
      else methodNotAllowed(req, res, 'POST');
      return true;
    }
    if (url.pathname === SETUP_PATH) {
      if (req.method === 'GET') show(req, res, url);
      else if (req.method === 'POST') await submit(req, res, url);
      else methodNotAllowed(req, res, 'GET, POST');
      return true;
    }
    return false;
  };
}
