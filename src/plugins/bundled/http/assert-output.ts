/** The output of `http assert` / `http run` (its own module: the JUnit writer and the command share it). */
import { Closed, Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';

export const assertOutput = RootObject({
  // Both commands report as http.assert (the reference pins it so; run is only another name).
  command: Type.Literal('http.assert'),
  spec_path: Type.String(),
  fail_fast: Type.Boolean(),
  report: Type.Union([Type.Literal('text'), Type.Literal('json'), Type.Literal('junit')]),
  summary: Closed({
    total: Type.Integer({ minimum: 0 }),
    passed: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    duration_ms: Type.Integer({ minimum: 0 }),
  }),
  cases: Type.Array(
    Closed({
      name: Type.String(),
      passed: Type.Boolean(),
      status: Nullable(Type.Integer({ minimum: 100, maximum: 599 })),
      duration_ms: Type.Integer({ minimum: 0 }),
      failures: Type.Array(Type.String()),
    }),
  ),
});
export type AssertOutput = Static<typeof assertOutput>;
