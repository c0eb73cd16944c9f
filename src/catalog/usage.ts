/**
 * Usage lines and example argv derived from a descriptor's input schema and CLI hints. Pure and
 * dependency-free (only catalog types), so the CLI help can share it with `ai.info`.
 */
import type { CommandDescriptor } from './descriptor.js';
import { type JsonSchema, toJsonSchema } from './schema.js';

type UsageSource = Pick<CommandDescriptor, 'id' | 'inputSchema' | 'cli'>;

/** A field's flag name: `number_lines` is `--number-lines`. */
export const kebab = (name: string) => name.replaceAll('_', '-');

/** A property's type, a nullable one's without the `null`. */
export function typeOf(prop: JsonSchema | undefined): unknown {
  const type = prop?.type;
  return Array.isArray(type) ? type.find((t) => t !== 'null') : type;
}

export const isSwitch = (prop: JsonSchema | undefined) => typeOf(prop) === 'boolean' || prop?.const === true;

/** `a|b` for closed value sets (enum, or a union of constants), else a placeholder. */
function placeholder(name: string, prop: JsonSchema | undefined): string {
  const variants = (prop?.anyOf ?? prop?.oneOf) as JsonSchema[] | undefined;
  let choices: unknown[] | undefined;
  if (Array.isArray(prop?.enum)) choices = prop.enum as unknown[];
  else if (variants?.every((s) => 'const' in s)) choices = variants.map((s) => s.const);
  if (choices?.every((c) => typeof c === 'string' || typeof c === 'number')) return choices.join('|');
  const type = typeOf(prop);
  if (type === 'integer' || type === 'number') return 'N';
  if (type === 'array') return placeholder(name, prop?.items as JsonSchema | undefined);
  return name.toUpperCase();
}

function flagFor(source: UsageSource, field: string, allowShort = true): string {
  const hints = source.cli ?? {};
  if (allowShort) {
    const short = Object.entries(hints.short ?? {}).find(([, f]) => f === field)?.[0];
    if (short) return `-${short}`;
  }
  const alias = Object.entries(hints.aliases ?? {}).find(([, f]) => f === field)?.[0];
  return `--${alias ?? kebab(field)}`;
}

/** The input schema's properties and the names of the required ones. */
export function properties(source: Pick<UsageSource, 'inputSchema'>): { props: Record<string, JsonSchema>; required: Set<string> } {
  const schema = toJsonSchema(source.inputSchema);
  return {
    props: (schema.properties ?? {}) as Record<string, JsonSchema>,
    required: new Set((schema.required ?? []) as string[]),
  };
}

export function commandWords(id: string): string[] {
  return ['ah', ...id.split('.')];
}

/** `ah file read` for `file.read`. */
export function commandPath(id: string): string {
  return commandWords(id).join(' ');
}

/** e.g. `ah file read <path> [--from N] [--to N] [-n] …` */
export function usageFor(source: UsageSource): string {
  const { props, required } = properties(source);
  const hints = source.cli ?? {};
  const positional = new Set(hints.positionals ?? []);
  const parts = [...commandWords(source.id)];
  for (const name of hints.positionals ?? []) {
    const many = typeOf(props[name]) === 'array' ? '...' : '';
    parts.push(required.has(name) ? `<${name}>${many}` : `[${name}]${many}`);
  }
  for (const [name, prop] of Object.entries(props)) {
    if (positional.has(name) || name === hints.rest) continue;
    const flag = flagFor(source, name);
    const value = isSwitch(prop) ? '' : ` ${placeholder(name, prop)}`;
    const repeat = typeOf(prop) === 'array' ? '...' : '';
    parts.push(required.has(name) ? `${flag}${value}${repeat}` : `[${flag}${value}]${repeat}`);
  }
  if (hints.rest) parts.push(`[--] <${hints.rest}>...`);
  return parts.join(' ');
}

const scalar = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The CLI argv that performs an example's arguments. */
export function argvForExample(source: UsageSource, args: Readonly<Record<string, unknown>>): string[] {
  const { props } = properties(source);
  const hints = source.cli ?? {};
  const positional = new Set(hints.positionals ?? []);
  const positionalTokens: string[] = [];
  for (const name of hints.positionals ?? []) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) positionalTokens.push(...value.map(scalar));
    else positionalTokens.push(scalar(value));
  }
  const flagTokens: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (positional.has(name) || name === hints.rest || value === undefined || value === null) continue;
    if (value === true) flagTokens.push(flagFor(source, name));
    else if (value === false) {
      // Omitting a switch means false unless its default is true; then only `--flag=false` says so.
      if (props[name]?.default === true) flagTokens.push(`${flagFor(source, name, false)}=false`);
    } else if (Array.isArray(value)) for (const item of value) flagTokens.push(flagFor(source, name), scalar(item));
    else flagTokens.push(flagFor(source, name), scalar(value));
  }
  const argv = [...commandWords(source.id)];
  const rest = hints.rest ? args[hints.rest] : undefined;
  if (!hints.rest && positionalTokens.some((t) => t.startsWith('-'))) {
    // A value like `-x` would read as an option: put the flags first and the values after `--`.
    argv.push(...flagTokens, '--', ...positionalTokens);
    return argv;
  }
  argv.push(...positionalTokens, ...flagTokens);
  if (Array.isArray(rest)) argv.push('--', ...rest.map(scalar));
  return argv;
}
