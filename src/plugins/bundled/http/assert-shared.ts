/** Inputs, output and reports of `http assert` and its alias `http run` (one implementation). */
import type { CommandContext, CommandDescriptor } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';
import { type AssertOutput, assertOutput } from './assert-output.js';
import { junitXml } from './junit.js';

export { type AssertOutput, assertOutput };

export const assertInput = RootObject({
  spec_path: Type.String({ minLength: 1, description: 'Spec file (YAML .yaml/.yml, or .json), relative to cwd' }),
  vars: Type.Optional(
    Type.Array(Type.String({ pattern: '^[^=]+=.*$', maxLength: 16_384 }), {
      maxItems: 100,
      description: "Variables 'K=V', overriding the spec's vars",
    }),
  ),
  fail_fast: Type.Boolean({ default: false, description: 'Stop at the first failed case' }),
  retry: Type.Integer({
    minimum: 0,
    maximum: 10,
    default: 0,
    description: 'Extra attempts per request after a transport error, timeout or 5xx',
  }),
  retry_delay_ms: Type.Integer({ minimum: 0, maximum: 60_000, default: 0, description: 'Fixed delay between attempts' }),
  report: Type.Union([Type.Literal('text'), Type.Literal('json'), Type.Literal('junit')], {
    default: 'text',
    description: 'CLI report format: text, json or junit (JUnit XML)',
  }),
});
export type AssertInput = Static<typeof assertInput>;

export function textReport(o: AssertOutput, onlyFailed = false): string {
  const lines: string[] = [];
  for (const c of o.cases) {
    if (onlyFailed && c.passed) continue;
    lines.push(`${c.passed ? 'PASS' : 'FAIL'}  ${c.name} (${c.status ?? 'no response'}, ${c.duration_ms} ms)`);
    for (const f of c.failures) lines.push(`      ${f}`);
  }
  if (!onlyFailed)
    lines.push(`${o.summary.total} cases: ${o.summary.passed} passed, ${o.summary.failed} failed (${o.summary.duration_ms} ms)`);
  return lines.join('\n');
}

function render(o: AssertOutput): string {
  if (o.report === 'json') return JSON.stringify(o, null, 2);
  if (o.report === 'junit') return junitXml(o);
  return textReport(o);
}

/** Runs a spec and builds the report, passed or not (the command turns a failure into an error). */
export async function executeSpec(args: AssertInput, ctx: CommandContext): Promise<AssertOutput> {
  const started = performance.now();
  const [{ loadSpec }, { runSpec }] = await Promise.all([import('./spec-load.js'), import('./spec-run.js')]);
  const spec = await loadSpec(ctx.cwd, args.spec_path);
  const cases = await runSpec(spec, ctx, {
    vars: args.vars ?? [],
    failFast: args.fail_fast,
    retry: args.retry,
    retryDelayMs: args.retry_delay_ms,
  });
  const failed = cases.filter((c) => !c.passed).length;
  return {
    command: 'http.assert',
    spec_path: args.spec_path,
    fail_fast: args.fail_fast,
    report: args.report,
    summary: { total: cases.length, passed: cases.length - failed, failed, duration_ms: Math.round(performance.now() - started) },
    cases,
  };
}

export function assertCommand(
  id: 'http.assert' | 'http.run',
  title: string,
  description: string,
): CommandDescriptor<AssertInput, AssertOutput> {
  return {
    id,
    title,
    description,
    inputSchema: assertInput,
    outputSchema: assertOutput,
    effects: {
      readOnly: false,
      destructive: true,
      idempotent: false,
      openWorld: true,
      effects: ['filesystem_read', 'network_read', 'network_write'],
      risk: 'high',
      impact: 'Sends every request the spec file describes, with whatever methods it names; the servers may create, change or delete data.',
      reversibility: 'unknown',
    },
    examples: [
      { description: 'Run an API spec', arguments: { spec_path: 'api-spec.yaml' } },
      {
        description: 'Run against another host, stop at the first failure',
        arguments: { spec_path: 'api-spec.yaml', vars: ['base=http://127.0.0.1:9090'], fail_fast: true },
      },
    ],
    cli: { positionals: ['spec_path'], aliases: { var: 'vars' } },
    render,
    async run(args, ctx) {
      const output = await executeSpec(args, ctx);
      const failed = output.summary.failed;
      const cases = output.cases;
      if (failed > 0) {
        throw new AhError({
          code: 'HTTP_ASSERTION_FAILED',
          message: `${failed} of ${cases.length} cases failed in ${args.spec_path}`,
          cause: textReport(output, true),
          ...(args.report === 'text' ? {} : { report: args.report === 'junit' ? junitXml(output) : JSON.stringify(output, null, 2) }),
          domain: 'http',
          operation: id,
        });
      }
      return output;
    },
  };
}
