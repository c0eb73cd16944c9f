/**
 * Turns a command's argv tail into its input object, driven by the input schema and CLI hints:
 * snake_case fields are --kebab-case flags, booleans are switches, arrays repeat, positionals and
 * an opaque `rest` field come from the hints. Global options are lifted out on the way.
 */
import type { CommandDescriptor } from '../../catalog/descriptor.js';
import type { JsonSchema } from '../../catalog/schema.js';
import { commandPath, isSwitch, kebab, properties, typeOf } from '../../catalog/usage.js';
import { AhError } from '../../errors.js';
import { type Globals, takeGlobal } from './globals.js';
import { suggest } from '../../platform/suggest.js';

type ArgSpec = Pick<CommandDescriptor, 'id' | 'inputSchema' | 'cli' | 'credentialSlots'>;

/** The reserved input key under which `--credential SLOT=ID` pairs are collected (split off again before validation). */
export const CREDENTIALS_KEY = 'credentials';

function addCredential(spec: ArgSpec, input: Record<string, unknown>, raw: string): void {
  const slots = spec.credentialSlots ?? [];
  if (slots.length === 0) throw usageError(spec, `'${commandPath(spec.id)}' takes no --credential`);
  const eq = raw.indexOf('=');
  if (eq <= 0 || eq === raw.length - 1) {
    throw usageError(spec, `--credential expects SLOT=ID (slots: ${slots.map((s) => s.name).join(', ')})`);
  }
  const map = (input[CREDENTIALS_KEY] as Record<string, string> | undefined) ?? {};
  const slot = raw.slice(0, eq);
  if (Object.hasOwn(map, slot)) throw usageError(spec, `--credential names slot '${slot}' twice`);
  map[slot] = raw.slice(eq + 1);
  input[CREDENTIALS_KEY] = map;
}

type PropKind = 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'json';

function kindOf(schema: JsonSchema | undefined): PropKind {
  if (!schema) return 'json';
  if (isSwitch(schema)) return 'boolean';
  const type = typeOf(schema);
  return type === 'integer' || type === 'number' || type === 'string' || type === 'array' ? type : 'json';
}

function usageError(spec: ArgSpec, message: string, suggestion?: string): AhError {
  return new AhError({
    code: 'INVALID_ARGUMENT',
    message,
    hint: suggestion ? `Did you mean ${suggestion}?` : undefined,
    operation: spec.id,
  });
}

function convert(spec: ArgSpec, flag: string, kind: PropKind, raw: string): unknown {
  switch (kind) {
    case 'integer':
      if (!/^-?\d+$/.test(raw)) throw usageError(spec, `${flag} expects a whole number, got '${raw}'`);
      return Number(raw);
    case 'number':
      if (raw.trim() === '' || Number.isNaN(Number(raw))) throw usageError(spec, `${flag} expects a number, got '${raw}'`);
      return Number(raw);
    case 'json':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return raw;
      }
    default:
      return raw;
  }
}

export function parseCommandArgs(spec: ArgSpec, tokens: readonly string[], globals: Globals): Record<string, unknown> {
  const { props } = properties(spec);
  const hints = spec.cli ?? {};
  const flags = new Map<string, string>();
  for (const name of Object.keys(props)) flags.set(kebab(name), name);
  for (const [alias, field] of Object.entries(hints.aliases ?? {})) flags.set(alias, field);
  const positionals = [...(hints.positionals ?? [])];
  const input: Record<string, unknown> = {};
  const set = (field: string, flag: string, raw: string) => {
    const prop = props[field];
    const kind = kindOf(prop);
    if (kind === 'array') {
      const list = (input[field] as unknown[] | undefined) ?? [];
      list.push(convert(spec, flag, kindOf((prop?.items as JsonSchema | undefined) ?? { type: 'string' }), raw));
      input[field] = list;
    } else {
      input[field] = convert(spec, flag, kind, raw);
    }
  };
  const startRest = (from: number) => {
    if (!hints.rest) return false;
    input[hints.rest] = tokens.slice(from);
    return true;
  };

  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i] as string;
    if (token === '--') {
      if (startRest(i + 1)) return input;
      for (const value of tokens.slice(i + 1)) assignPositional(value);
      break;
    }
    const long = token.startsWith('--') && token.length > 2;
    if (long || (token.startsWith('-') && token.length === 2)) {
      // `--name`, `--name=value` or a short `-x` (which takes no inline value).
      const eq = long ? token.indexOf('=') : -1;
      const name = long ? token.slice(2, eq === -1 ? undefined : eq) : token.slice(1);
      const flag = long ? `--${name}` : token;
      const inline = eq === -1 ? undefined : token.slice(eq + 1);
      const field = long ? flags.get(name) : hints.short?.[name];
      if (field === undefined && flag === '--credential') {
        const value = inline ?? tokens[i + 1];
        if (value === undefined) throw usageError(spec, '--credential needs SLOT=ID');
        addCredential(spec, input, value);
        i += inline === undefined ? 2 : 1;
        continue;
      }
      if (field === undefined) {
        const used = takeGlobal(tokens, i, globals);
        if (used > 0) {
          i += used;
          continue;
        }
        const guess = long ? suggest(name, flags.keys()) : undefined;
        throw usageError(spec, `unknown option '${flag}' for '${commandPath(spec.id)}'`, guess ? `--${guess}` : undefined);
      }
      if (kindOf(props[field]) === 'boolean') {
        if (inline !== undefined && inline !== 'true' && inline !== 'false')
          throw usageError(spec, `${flag} is a switch and takes no value`);
        input[field] = inline !== 'false';
        i += 1;
        continue;
      }
      const value = inline ?? tokens[i + 1];
      if (value === undefined) throw usageError(spec, `${flag} needs a value`);
      set(field, flag, value);
      i += inline === undefined ? 2 : 1;
      continue;
    }
    if (positionals.length === 0 && startRest(i)) return input;
    assignPositional(token);
    i += 1;
  }
  return input;

  function assignPositional(value: string): void {
    const field = positionals[0];
    if (field === undefined) {
      throw usageError(spec, `unexpected argument '${value}' for '${commandPath(spec.id)}'`);
    }
    // An array positional takes every remaining value.
    if (kindOf(props[field]) !== 'array') positionals.shift();
    set(field, field, value);
  }
}
