/**
 * Turns a command's argv tail into its input object, driven by the input schema and CLI hints:
 * snake_case fields are --kebab-case flags, booleans are switches, arrays repeat, positionals and
 * an opaque `rest` field come from the hints. Global options are lifted out on the way.
 */
import type { CliHints, CredentialSlot } from '../../catalog/descriptor.js';
import { type JsonSchema, toJsonSchema, type TSchema } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { type Globals, takeGlobal } from './globals.js';
import { suggest } from '../../platform/suggest.js';

interface ArgSpec {
  id: string;
  inputSchema: TSchema | JsonSchema;
  cli?: CliHints | undefined;
  credentialSlots?: readonly CredentialSlot[] | undefined;
}

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

export function kebab(name: string): string {
  return name.replaceAll('_', '-');
}

function kindOf(schema: JsonSchema | undefined): PropKind {
  if (!schema) return 'json';
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'boolean' || schema.const === true) return 'boolean';
  if (type === 'integer' || type === 'number' || type === 'string' || type === 'array') return type;
  return 'json';
}

function itemKind(schema: JsonSchema | undefined): PropKind {
  return kindOf((schema?.items as JsonSchema | undefined) ?? { type: 'string' });
}

export function commandPath(id: string): string {
  return `ah ${id.split('.').join(' ')}`;
}

function usageError(spec: ArgSpec, message: string, extra: { suggestion?: string; cause?: string } = {}): AhError {
  return new AhError({
    code: 'INVALID_ARGUMENT',
    message,
    cause: extra.cause,
    hint: extra.suggestion ? `Did you mean ${extra.suggestion}?` : undefined,
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
  const schema = toJsonSchema(spec.inputSchema);
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
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
      list.push(convert(spec, flag, itemKind(prop), raw));
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
    if (token.startsWith('--') && token.length > 2) {
      const eq = token.indexOf('=');
      const name = token.slice(2, eq === -1 ? undefined : eq);
      const inline = eq === -1 ? undefined : token.slice(eq + 1);
      const field = flags.get(name);
      if (field === undefined && name === 'credential') {
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
        const guess = suggest(name, flags.keys());
        throw usageError(spec, `unknown option '--${name}' for '${commandPath(spec.id)}'`, guess ? { suggestion: `--${guess}` } : {});
      }
      const kind = kindOf(props[field]);
      if (kind === 'boolean') {
        if (inline !== undefined && inline !== 'true' && inline !== 'false')
          throw usageError(spec, `--${name} is a switch and takes no value`);
        input[field] = inline === undefined ? true : inline === 'true';
        i += 1;
        continue;
      }
      const value = inline ?? tokens[i + 1];
      if (value === undefined) throw usageError(spec, `--${name} needs a value`);
      set(field, `--${name}`, value);
      i += inline === undefined ? 2 : 1;
      continue;
    }
    if (token.startsWith('-') && token.length === 2 && token !== '--') {
      const field = hints.short?.[token.slice(1)];
      if (field === undefined) {
        const used = takeGlobal(tokens, i, globals);
        if (used > 0) {
          i += used;
          continue;
        }
        throw usageError(spec, `unknown option '${token}' for '${commandPath(spec.id)}'`);
      }
      if (kindOf(props[field]) === 'boolean') {
        input[field] = true;
        i += 1;
        continue;
      }
      const value = tokens[i + 1];
      if (value === undefined) throw usageError(spec, `${token} needs a value`);
      set(field, token, value);
      i += 2;
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
