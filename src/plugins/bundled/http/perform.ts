/** Runs one one-off request (every one-off command ends here): plan, send, check expectations. */
import type { CommandContext } from '../../../catalog/descriptor.js';
import { AhError } from '../../../errors.js';
import { evaluate, type Expectations, parseJsonCheck } from './expect.js';
import type { ResponseOutput } from './output.js';
import { type AuthSources, buildPlan, type OneOffInput, parseHeader } from './plan.js';
import { send } from './transport.js';

export function oneOffExpectations(input: OneOffInput): Expectations {
  return {
    status: input.expect_status,
    headers: (input.expect_headers ?? []).map((h) => parseHeader(h, 'expect_headers')),
    bodyContains: input.expect_body_contains ?? [],
    json: (input.expect_json ?? []).map(parseJsonCheck),
  };
}

export function slotValues(ctx: CommandContext): Readonly<Record<string, string>> | undefined {
  return ctx.credentials.basic?.values;
}

export async function performRequest(
  commandId: string,
  method: string,
  input: OneOffInput,
  ctx: CommandContext,
  auth?: AuthSources,
): Promise<ResponseOutput> {
  // Expectations are parsed before sending: a malformed check must not cost a request.
  const expectations = oneOffExpectations(input);
  const plan = await buildPlan(method, input, ctx, auth ?? { bearer: input.bearer, basic: input.basic, slot: slotValues(ctx) });
  const response = await send(plan, ctx);
  const verdict = evaluate(expectations, response, { reveal: true, deadline: ctx.deadline });
  const url = new URL(response.url);
  url.username = '';
  url.password = '';
  if (verdict.failed > 0) {
    throw new AhError({
      code: 'HTTP_ASSERTION_FAILED',
      message: `${verdict.failed} of ${verdict.total} expectations failed for ${method} ${url.origin}${url.pathname} (status ${response.status})`,
      cause: verdict.failures.join('; '),
      domain: 'http',
      operation: commandId,
    });
  }
  return {
    command: commandId,
    method,
    url: url.href,
    status: response.status,
    ok: response.status >= 200 && response.status < 300,
    duration_ms: response.durationMs,
    headers: response.headers,
    body: response.body,
    body_truncated: response.truncated,
    truncated: response.truncated,
    assertions: verdict,
  };
}
