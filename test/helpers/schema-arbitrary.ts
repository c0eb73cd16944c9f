/**
 * fast-check arbitraries from the JSON Schemas our tools publish: values that satisfy a schema,
 * and values that break it in one known way. Covers the keywords the catalog uses: type (and type
 * lists), properties, required, additionalProperties, const, enum, anyOf/oneOf, minimum/maximum,
 * exclusiveMinimum/exclusiveMaximum, minLength/maxLength, pattern, items, minItems/maxItems; description,
 * default, $schema and title are ignored. An unknown keyword fails loudly, so a new schema shape
 * is noticed instead of fuzzed wrongly.
 */
import fc, { type Arbitrary } from 'fast-check';

export type Schema = Record<string, unknown>;

const KNOWN = new Set([
  '$schema',
  'title',
  'description',
  'default',
  'examples',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'const',
  'enum',
  'anyOf',
  'oneOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'items',
  'minItems',
  'maxItems',
  'format',
]);

function check(schema: Schema): void {
  for (const key of Object.keys(schema)) if (!KNOWN.has(key)) throw new Error(`schema-arbitrary: unsupported keyword '${key}'`);
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** Strings kept short and mostly printable: path-like and word-like text finds more than noise. */
function stringArb(schema: Schema): Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = Math.min(num(schema.maxLength) ?? 24, Math.max(minLength, 24));
  // A pattern-constrained string (an owner/repo, a date, NAME=value) is generated from the pattern.
  if (typeof schema.pattern === 'string')
    return fc
      .stringMatching(new RegExp(schema.pattern, 'u'))
      .filter((s) => s.length >= minLength && s.length <= (num(schema.maxLength) ?? Number.MAX_SAFE_INTEGER));
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ unit: 'grapheme', minLength, maxLength }),
    fc
      .constantFrom('.', '..', 'README.md', 'a.txt', 'src', '*', '-', '--help', '\u0000', 'ünï', '$(id)', '../../etc/passwd')
      .filter((s) => s.length >= minLength && s.length <= maxLength),
  );
}

function integerArb(schema: Schema): Arbitrary<number> {
  const exMin = num(schema.exclusiveMinimum);
  const exMax = num(schema.exclusiveMaximum);
  const min = Math.max(num(schema.minimum) ?? -1_000_000, exMin !== undefined ? Math.floor(exMin) + 1 : -Infinity);
  const max = Math.min(num(schema.maximum) ?? 1_000_000, exMax !== undefined ? Math.ceil(exMax) - 1 : Infinity);
  // Small values most of the time (a count of 10^6 lines is valid but dull); the edges too.
  const small = fc.integer({ min: Math.max(min, Math.min(max, 0)), max: Math.min(max, Math.max(min, 0) + 50) });
  return fc.oneof(small, fc.constantFrom(min, max), fc.integer({ min, max }));
}

function numberArb(schema: Schema): Arbitrary<number> {
  const min = num(schema.minimum) ?? num(schema.exclusiveMinimum) ?? -1e6;
  const max = num(schema.maximum) ?? num(schema.exclusiveMaximum) ?? 1e6;
  return fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true })
    .filter((v) => v !== num(schema.exclusiveMinimum) && v !== num(schema.exclusiveMaximum));
}

function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (Array.isArray(type)) return type as string[];
  if (typeof type === 'string') return [type];
  return [];
}

/** Values that satisfy `schema`. `overrides` replaces whole top-level properties (e.g. context). */
export function validArb(schema: Schema, depth = 0): Arbitrary<unknown> {
  check(schema);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validArb(s, depth + 1)));
  const types = typesOf(schema);
  if (types.length > 1) return fc.oneof(...types.map((type) => validArb({ ...schema, type }, depth)));
  switch (types[0]) {
    case 'string':
      return stringArb(schema);
    case 'integer':
      return integerArb(schema);
    case 'number':
      return numberArb(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = num(schema.minItems) ?? 0;
      const maxLength = Math.min(num(schema.maxItems) ?? 4, Math.max(minLength, 4));
      const items = (schema.items as Schema | undefined) ?? {};
      return fc.array(validArb(items, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectArb(schema, depth);
    default:
      // No type: any JSON value, kept shallow.
      return depth > 3 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArb(schema: Schema, depth: number): Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const model: Record<string, Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(properties)) model[name] = validArb(sub, depth + 1);
  const known = fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
  if (schema.additionalProperties === false || Object.keys(properties).length > 0) return known;
  return fc
    .tuple(known, fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }))
    .map(([a, b]) => ({ ...b, ...a }));
}

/** A value of a JSON type other than the ones `schema` allows (or a clearly wrong one). */
function wrongType(schema: Schema): Arbitrary<unknown> {
  const types = new Set(typesOf(schema));
  const options: Arbitrary<unknown>[] = [];
  if (!types.has('string')) options.push(fc.string({ maxLength: 8 }));
  if (!types.has('integer') && !types.has('number')) options.push(fc.integer());
  if (!types.has('boolean')) options.push(fc.boolean());
  if (!types.has('null')) options.push(fc.constant(null));
  if (!types.has('array')) options.push(fc.array(fc.integer(), { maxLength: 3 }));
  if (!types.has('object')) options.push(fc.constant({ unexpected: true }));
  if (types.has('integer') && !types.has('number')) options.push(fc.constantFrom(0.5, 1e300, -1.5));
  return fc.oneof(...options);
}

/** A value outside the schema's own range (too small, too large, too long), when it has one. */
function outOfRange(schema: Schema): Arbitrary<unknown> | undefined {
  const options: Arbitrary<unknown>[] = [];
  const min = num(schema.minimum);
  const max = num(schema.maximum);
  if (min !== undefined) options.push(fc.constantFrom(min - 1, min - 1e9, -(2 ** 53)));
  if (max !== undefined) options.push(fc.constantFrom(max + 1, max * 2 + 1, 2 ** 53, 1e308));
  const maxLength = num(schema.maxLength);
  if (maxLength !== undefined) options.push(fc.constant('x'.repeat(maxLength + 1)));
  const minLength = num(schema.minLength);
  if (minLength !== undefined && minLength > 0) options.push(fc.constant(''));
  const minItems = num(schema.minItems);
  if (minItems !== undefined && minItems > 0) options.push(fc.constant([]));
  return options.length > 0 ? fc.oneof(...options) : undefined;
}

/**
 * Objects that break an object schema in one way, each certain to be refused by a validator:
 * an unknown member (additionalProperties false), a missing required member, a member of the
 * wrong type, or a member outside its range.
 */
export function invalidObjectArb(schema: Schema): Arbitrary<Record<string, unknown>> {
  const base = objectArb(schema, 0);
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const names = Object.keys(properties);
  const required = (schema.required as string[] | undefined) ?? [];
  const mutations: Arbitrary<Record<string, unknown>>[] = [];
  if (schema.additionalProperties === false) {
    mutations.push(
      fc
        .tuple(
          base,
          fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !(k in properties)),
          fc.jsonValue({ maxDepth: 1 }),
        )
        .map(([value, key, extra]) => ({ ...value, [key]: extra })),
    );
  }
  if (required.length > 0) {
    mutations.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([value, key]) => {
        const copy = { ...value };
        delete copy[key];
        return copy;
      }),
    );
  }
  // Members without a type (or with anyOf) may accept anything: only typed ones are mutated.
  const typed = names.filter((n) => typesOf(properties[n] as Schema).length > 0 && !('const' in (properties[n] as Schema)));
  if (typed.length > 0) {
    mutations.push(
      fc
        .constantFrom(...typed)
        .chain((name) => fc.tuple(base, fc.constant(name), wrongType(properties[name] as Schema)))
        .map(([value, name, wrong]) => ({ ...value, [name]: wrong })),
    );
    const ranged = typed.filter((n) => outOfRange(properties[n] as Schema) !== undefined);
    if (ranged.length > 0) {
      mutations.push(
        fc
          .constantFrom(...ranged)
          .chain((name) => fc.tuple(base, fc.constant(name), outOfRange(properties[name] as Schema) as Arbitrary<unknown>))
          .map(([value, name, wrong]) => ({ ...value, [name]: wrong })),
      );
    }
  }
  if (mutations.length === 0) throw new Error('schema-arbitrary: no way to make this schema fail');
  return fc.oneof(...mutations);
}
