/** The result of a one-off request, and how the CLI shows it. */
import { Closed, RootObject, type Static, Type } from '../../../catalog/schema.js';

export function responseOutput(commandId: string) {
  return RootObject({
    command: Type.Literal(commandId),
    method: Type.String(),
    url: Type.String({ description: 'Final URL (after redirects), without userinfo' }),
    status: Type.Integer({ minimum: 100, maximum: 599 }),
    ok: Type.Boolean({ description: 'Status is 2xx' }),
    duration_ms: Type.Integer({ minimum: 0 }),
    headers: Type.Record(Type.String(), Type.String(), {
      description: "Response headers, lower-case names, repeated values joined with ', '",
    }),
    body: Type.String(),
    body_truncated: Type.Boolean(),
    truncated: Type.Boolean(),
    assertions: Closed({
      total: Type.Integer({ minimum: 0 }),
      passed: Type.Integer({ minimum: 0 }),
      failed: Type.Integer({ minimum: 0 }),
      failures: Type.Array(Type.String()),
    }),
  });
}

export type ResponseOutput = Static<ReturnType<typeof responseOutput>>;

/** People see the status line, then the body (as an HTTP client would show it). */
export function renderResponse(o: ResponseOutput): string {
  const lines = [`${o.method} ${o.url} -> ${o.status} (${o.duration_ms} ms)`];
  if (o.assertions.total > 0) lines.push(`assertions: ${o.assertions.passed}/${o.assertions.total} passed`);
  if (o.body !== '') lines.push('', o.body.replace(/\n$/, ''));
  if (o.body_truncated) lines.push('', '(body truncated at max_response_bytes)');
  return lines.join('\n');
}
