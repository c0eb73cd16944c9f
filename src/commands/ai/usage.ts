/** Usage lines and example argv derived from a descriptor's input schema and CLI hints. */
import type { CliHints } from '../../catalog/descriptor.js';
import { type JsonSchema, type TSchema, toJsonSchema } from '../../catalog/schema.js';

interface UsageSource {
  id: string;
  inputSchema: TSchema | JsonSchema;
  cli?: CliHints | undefined;
}

const kebab = (name: string) => name.replaceAll('_', '-');

function flagName(source: UsageSource, field: string): string {
  const alias = Object.entries(source.cli?.aliases ?? {}).find(([, f]) => f === field)?.[0];
  return `--${alias ?? kebab(field)}`;
}

export function commandWords(id: string): string[] {
  return ['ah', ...id.split('.')];
}

/** e.g. `ah file read <path> [-n] [--from N] [--to N] …` */
export function usageFor(source: UsageSource): string {
  const schema = toJsonSchema(source.inputSchema);
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const hints = source.cli ?? {};
  const positional = new Set(hints.positionals ?? []);
  const shortFor = new Map(Object.entries(hints.short ?? {}).map(([letter, field]) => [field, letter]));
  const parts = [...commandWords(source.id)];
  for (const name of hints.positionals ?? []) {
    const many = props[name]?.type === 'array' ? '...' : '';
    parts.push(required.has(name) ? `<${name}>${many}` : `[${name}]${many}`);
  }
  for (const [name, prop] of Object.entries(props)) {
    if (positional.has(name) || name === hints.rest) continue;
    const short = shortFor.get(name);
    const flag = short ? `-${short}` : flagName(source, name);
    const isSwitch = prop.type === 'boolean' || prop.const === true;
    const value = isSwitch ? '' : ` ${prop.type === 'integer' ? 'N' : name.toUpperCase()}`;
    const repeat = prop.type === 'array' ? '...' : '';
    parts.push(required.has(name) ? `${flag}${value}${repeat}` : `[${flag}${value}]${repeat}`);
  }
  if (hints.rest) parts.push(`[--] <${hints.rest}>...`);
  return parts.join(' ');
}

/** The CLI argv that performs an example's arguments. */
export function argvForExample(source: UsageSource, args: Readonly<Record<string, unknown>>): string[] {
  const hints = source.cli ?? {};
  const shortFor = new Map(Object.entries(hints.short ?? {}).map(([letter, field]) => [field, letter]));
  const argv = [...commandWords(source.id)];
  const scalar = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  for (const name of hints.positionals ?? []) {
    const value = args[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) argv.push(...value.map(scalar));
    else argv.push(scalar(value));
  }
  const positional = new Set(hints.positionals ?? []);
  for (const [name, value] of Object.entries(args)) {
    if (positional.has(name) || name === hints.rest || value === undefined) continue;
    const short = shortFor.get(name);
    const flag = short ? `-${short}` : flagName(source, name);
    if (value === true) argv.push(flag);
    else if (value === false) continue;
    else if (Array.isArray(value)) for (const item of value) argv.push(flag, scalar(item));
    else argv.push(flag, scalar(value));
  }
  const rest = hints.rest ? args[hints.rest] : undefined;
  if (Array.isArray(rest)) argv.push('--', ...rest.map(scalar));
  return argv;
}
