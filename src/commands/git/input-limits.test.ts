// Every size an agent can pass to git.* and run.* has a ceiling in the schema: integers a maximum,
// strings a maxLength, arrays a maxItems (issue 20: an unbounded input crashed the server).
import { describe, expect, it } from 'vitest';
import { runDomain } from '../run/index.js';
import { gitDomain } from './index.js';

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
};

function unbounded(schema: Schema, path: string): string[] {
  const found: string[] = [];
  if (schema.type === 'integer' || schema.type === 'number') {
    if (schema.maximum === undefined) found.push(path);
  } else if (schema.type === 'string') {
    if (schema.maxLength === undefined && !('enum' in schema) && !('const' in schema)) found.push(path);
  } else if (schema.type === 'array') {
    if (schema.maxItems === undefined) found.push(path);
    if (schema.items) found.push(...unbounded(schema.items, `${path}[]`));
  }
  for (const [name, child] of Object.entries(schema.properties ?? {})) found.push(...unbounded(child, `${path}.${name}`));
  return found;
}

describe('input ceilings', () => {
  const commands = [...gitDomain.commands, ...runDomain.commands];
  it.each(commands.map((c) => [c.id, c] as const))('%s: every size input has a maximum', (_id, command) => {
    expect(unbounded(command.inputSchema as Schema, command.id)).toEqual([]);
  });
});
