/**
 * Schema authoring and validation. Commands author schemas with TypeBox (one source for the TS type
 * and the JSON Schema); validation uses Ajv's 2020-12 dialect, compiled once per schema object.
 */
import { Type, type TSchema, type TObject, type TProperties, type Static } from '@sinclair/typebox';
import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import { loadAjv, loadAjvFormats } from './ajv-loader.js';
import { PRECOMPILED_VALIDATORS } from './precompiled.js';
import { schemaKey, type Validator } from './schema-key.js';

export { Type };
export type { TSchema, TObject, Static, Validator };

export type JsonSchema = Record<string, unknown>;

/**
 * A property with a default is optional for callers (the runtime fills it in before the handler
 * runs), so it leaves `required`; the static type keeps it non-optional for the handler.
 */
function defaultsOptional<T>(schema: T): T {
  const s = schema as unknown as { required?: string[]; properties: Record<string, { default?: unknown }> };
  const required = (s.required ?? []).filter((name) => s.properties[name]?.default === undefined);
  if (required.length === 0) delete s.required;
  else s.required = required;
  return schema;
}

/** A closed object. */
export function Closed<P extends TProperties>(properties: P, options: Record<string, unknown> = {}): TObject<P> {
  return defaultsOptional(Type.Object(properties, { additionalProperties: false, ...options }));
}

/**
 * A closed object schema at the root of a command's input or output. It names no `$schema`: the
 * dialect is 2020-12, which is what Ajv2020 and MCP assume without one, and the keyword would be
 * published in every tool schema of tools/list (200 copies, ~11 KB of a 100-tool list that every
 * client parses). A schema that declares a dialect (an external plugin's) is published as declared.
 */
export const RootObject: <P extends TProperties>(properties: P, options?: { description?: string }) => TObject<P> = Closed;

/**
 * Vendor keyword on a root input property that only the CLI accepts (a token or password given
 * inline): MCP's tools/list leaves the property out and an MCP call that sets it is refused. Its
 * value is the hint an MCP caller gets instead (which credential slot to use).
 */
export const CLI_ONLY = 'x-cli-only';

/** Schema options marking a property CLI-only; `mcpHint` says what an MCP caller passes instead. */
export function cliOnly(mcpHint: string): { [CLI_ONLY]: string } {
  return { [CLI_ONLY]: mcpHint };
}

const cliOnlyCache = new WeakMap<object, ReadonlyMap<string, string>>();

/** The CLI-only root properties of an input schema and their hints, once per schema object. */
export function cliOnlyFields(schema: JsonSchema | TSchema): ReadonlyMap<string, string> {
  const cached = cliOnlyCache.get(schema);
  if (cached) return cached;
  const fields = new Map<string, string>();
  const props = (schema as JsonSchema).properties as Record<string, JsonSchema> | undefined;
  for (const [name, prop] of Object.entries(props ?? {})) {
    const hint = prop?.[CLI_ONLY];
    if (typeof hint === 'string') fields.set(name, hint);
  }
  cliOnlyCache.set(schema, fields);
  return fields;
}

/** `T | null` written the way the reference catalog writes it: `type: [T, "null"]`. */
export function Nullable<T extends TSchema>(schema: T): ReturnType<typeof Type.Unsafe<Static<T> | null>> {
  const type: unknown = schema.type;
  return Type.Unsafe<Static<T> | null>(
    typeof type === 'string' ? { ...schema, type: [type, 'null'] } : { anyOf: [schema, { type: 'null' }] },
  );
}

/** Plain JSON copy of a TypeBox schema (drops TypeBox's symbol keys). */
export function toJsonSchema(schema: TSchema | JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}

/**
 * Adds the string formats to an Ajv instance (the build uses it for ahead-of-time validators).
 * ajv-formats ships CommonJS; depending on the loader its function sits one or two defaults deep.
 */
export function addAjvFormats(instance: Ajv2020): void {
  let fn: unknown = loadAjvFormats();
  while (typeof fn !== 'function' && fn && typeof fn === 'object' && 'default' in fn) fn = (fn as { default: unknown }).default;
  (fn as (ajv: Ajv2020) => unknown)(instance);
}

/** One set of options, shared with the build's ahead-of-time validators (scripts/build.mjs). */
export const AJV_OPTIONS = { allErrors: false, strict: false, useDefaults: true, validateFormats: true, validateSchema: false } as const;

let shared: Ajv2020 | undefined;
function ajv(): Ajv2020 {
  if (!shared) {
    // Schemas are checked against the 2020-12 meta-schema once, when a catalog is verified
    // (schemaProblems), not on every compile: that keeps the meta-schema off the start-up path.
    shared = new (loadAjv().Ajv2020)(AJV_OPTIONS);
    addAjvFormats(shared);
  }
  return shared;
}

const cache = new WeakMap<object, Validator>();

/**
 * Returns the validator of a schema, once per schema object: the build's ahead-of-time validator
 * when one was generated from the same JSON text, else an Ajv compile.
 */
export function compile(schema: JsonSchema | TSchema): Validator {
  const key = schema as object;
  const cached = cache.get(key);
  if (cached) return cached;
  // JSON text without TypeBox's symbol keys: the same text the build hashed.
  const text = JSON.stringify(schema);
  const fn: Validator = PRECOMPILED_VALIDATORS?.get(schemaKey(text)) ?? ajv().compile(JSON.parse(text) as JsonSchema);
  cache.set(key, fn);
  return fn;
}

/** Problems of a schema document against the JSON Schema 2020-12 meta-schema (null when valid). */
export function schemaProblems(schema: JsonSchema | TSchema): string | null {
  const instance = ajv();
  if (instance.validateSchema(toJsonSchema(schema)) === true) return null;
  return instance.errorsText(instance.errors);
}

/** How a person names the fields of a command: CLI flags and positionals, or MCP property names. */
export interface FieldWords {
  surface: 'cli' | 'mcp';
  /** Fields taken from positional arguments (CLI only). */
  positionals?: readonly string[];
}

/** The sub-schema an instance path points at (properties and items only; undefined past that). */
function schemaAt(root: JsonSchema, pointer: string): JsonSchema | undefined {
  let node: JsonSchema | undefined = root;
  for (const raw of pointer.split('/').slice(1)) {
    if (!node) return undefined;
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const props = node.properties as Record<string, JsonSchema> | undefined;
    if (props && key in props) node = props[key];
    else if (/^\d+$/.test(key) && node.items && typeof node.items === 'object') node = node.items as JsonSchema;
    else return undefined;
  }
  return node;
}

/** The fixed choices of a schema (enum, or a union of consts), or null. */
function choicesOf(schema: JsonSchema | undefined): string[] | null {
  if (!schema) return null;
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  if ('const' in schema) return [String(schema.const)];
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.length > 0 && branches.every((b) => 'const' in b)) return branches.map((b) => String(b.const));
  return null;
}

function fieldLabel(pointer: string, words: FieldWords | undefined): string {
  const segments = pointer.split('/').slice(1);
  if (!words || segments.length === 0) return pointer === '' ? '/' : pointer;
  const name = segments[0] as string;
  if (words.surface === 'mcp') return segments.join('.');
  const flag = words.positionals?.includes(name) ? `<${name}>` : `--${name.replaceAll('_', '-')}`;
  return segments.length === 1 ? flag : `${flag} (item ${segments.slice(1).join('.')})`;
}

/**
 * One readable line for the first validation problem, in the words of the surface: a fixed set
 * lists its choices, a missing field is named as the CLI or MCP spells it. Without `schema` and
 * `words` it falls back to the JSON pointer plus the rule.
 */
export function describeErrors(
  errors: ErrorObject[] | null | undefined,
  root = 'arguments',
  schema?: JsonSchema | TSchema,
  words?: FieldWords,
): string {
  const first = errors?.[0];
  if (!first) return `${root} are invalid`;
  const pointer = first.instancePath === '' ? '/' : first.instancePath;
  const doc = schema === undefined ? undefined : toJsonSchema(schema);
  if (first.keyword === 'required') {
    const missing = String((first.params as { missingProperty?: string }).missingProperty);
    const at = first.instancePath === '' ? '' : first.instancePath;
    if (words) return `missing ${fieldLabel(`${at}/${missing}`, words)}`;
    return `${pointer}: missing required property '${missing}' (rule: required)`;
  }
  if (first.keyword === 'additionalProperties') {
    const extra = String((first.params as { additionalProperty?: string }).additionalProperty);
    if (words?.surface === 'mcp')
      return `unknown property '${extra}'${first.instancePath ? ` in ${fieldLabel(first.instancePath, words)}` : ''}`;
    return `${pointer}: unknown property '${extra}' (rule: additionalProperties)`;
  }
  const choices = doc && ['const', 'enum', 'anyOf', 'oneOf'].includes(first.keyword) ? choicesOf(schemaAt(doc, first.instancePath)) : null;
  if (choices && words) return `${fieldLabel(first.instancePath, words)} must be one of: ${choices.join(', ')}`;
  if (words && first.instancePath !== '') return `${fieldLabel(first.instancePath, words)} ${first.message ?? 'is invalid'}`;
  return `${pointer}: ${first.message ?? 'is invalid'} (rule: ${first.keyword})`;
}
