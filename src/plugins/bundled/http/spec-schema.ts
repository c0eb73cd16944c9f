/** The assert spec, version 1 (YAML or JSON), as a JSON Schema: one source for checks and docs. */
import { Closed, type Static, Type } from '../../../catalog/schema.js';
import { EXPECT_STATUS, MAX_RESPONSE_BYTES_LIMIT, METHODS } from './inputs.js';

const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
const VAR_NAME = '^[A-Za-z_][A-Za-z0-9_.-]*$';
const Timeout = Type.Integer({ minimum: 1, maximum: 3600 });
const MaxBytes = Type.Integer({ minimum: 1, maximum: MAX_RESPONSE_BYTES_LIMIT });

const JsonExpect = Type.Union([
  Closed({ path: Type.String(), eq: Type.Unknown() }),
  Closed({ path: Type.String(), contains: Type.Unknown() }),
  Closed({ path: Type.String(), exists: Type.Boolean() }),
  Closed({ path: Type.String(), match: Type.String({ maxLength: 4096 }) }),
]);

const Extractor = Type.Union([
  Closed({ json: Type.String() }),
  Closed({ header: Type.String({ minLength: 1 }) }),
  Closed({
    text: Closed({
      regex: Type.String({ minLength: 1, maxLength: 4096 }),
      group: Type.Optional(Type.Integer({ minimum: 0, maximum: 99 })),
    }),
  }),
]);

export const SpecCase = Closed({
  name: Type.String({ minLength: 1, maxLength: 500 }),
  request: Closed({
    method: Type.Optional(Type.Union(METHODS.map((m) => Type.Literal(m)))),
    path: Type.Optional(Type.String({ description: 'Appended to defaults.base_url (or a whole URL)' })),
    url: Type.Optional(Type.String()),
    headers: Type.Optional(Type.Record(Type.String(), Scalar)),
    query: Type.Optional(Type.Record(Type.String(), Scalar)),
    json: Type.Optional(Type.Unknown()),
    body: Type.Optional(Type.String()),
    timeout_secs: Type.Optional(Timeout),
    max_response_bytes: Type.Optional(MaxBytes),
  }),
  expect: Type.Optional(
    Closed({
      status: Type.Optional(EXPECT_STATUS),
      headers: Type.Optional(Type.Record(Type.String(), Scalar)),
      body_contains: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 100 })),
      json: Type.Optional(Type.Array(JsonExpect, { maxItems: 100 })),
    }),
  ),
  extract: Type.Optional(Type.Record(Type.String({ pattern: VAR_NAME }), Extractor)),
});

export const SpecSchema = Type.Object(
  {
    version: Type.Literal(1),
    defaults: Type.Optional(
      Closed({
        base_url: Type.Optional(Type.String()),
        timeout_secs: Type.Optional(Timeout),
        max_response_bytes: Type.Optional(MaxBytes),
        headers: Type.Optional(Type.Record(Type.String(), Scalar)),
      }),
    ),
    vars: Type.Optional(Type.Record(Type.String({ pattern: VAR_NAME }), Scalar)),
    cases: Type.Array(SpecCase, { minItems: 1, maxItems: 1000 }),
  },
  { additionalProperties: false },
);

export type Spec = Static<typeof SpecSchema>;
export type SpecCaseT = Static<typeof SpecCase>;
