import { describe, expect, it } from 'vitest';
import type { CommandDescriptor } from '../../catalog/descriptor.js';
import { RootObject, Type } from '../../catalog/schema.js';
import { BUILTIN_DOMAINS } from '../index.js';
import { emptyGlobals } from '../../surfaces/cli/globals.js';
import { parseCommandArgs } from '../../surfaces/cli/args.js';
import { read } from '../file/read.js';
import { argvForExample, commandWords, usageFor } from '../../catalog/usage.js';

const sample = {
  id: 'demo.do.thing',
  inputSchema: RootObject({
    targets: Type.Array(Type.String()),
    mode: Type.Union([Type.Literal('fast'), Type.Literal('slow')], { default: 'fast' }),
    max_items: Type.Optional(Type.Integer()),
    tags: Type.Optional(Type.Array(Type.String())),
    verbose: Type.Boolean({ default: false }),
    color: Type.Boolean({ default: true }),
    reference: Type.Optional(Type.String()),
    name: Type.String(),
    all: Type.Optional(Type.Literal(true)),
  }),
  cli: { positionals: ['targets'], short: { v: 'verbose' }, aliases: { ref: 'reference' } },
};

const runner = {
  id: 'demo.exec',
  inputSchema: RootObject({ timeout_ms: Type.Optional(Type.Integer()), command: Type.Array(Type.String(), { minItems: 1 }) }),
  cli: { rest: 'command' },
};

describe('usageFor', () => {
  it('shows positionals, short flags, aliases, choices, switches and repeats', () => {
    expect(usageFor(sample)).toBe(
      'ah demo do thing <targets>... [--mode fast|slow] [--max-items N] [--tags TAGS]... [-v] [--color] [--ref REFERENCE] --name NAME [--all]',
    );
  });

  it('puts the rest field after an optional --', () => {
    expect(usageFor(runner)).toBe('ah demo exec [--timeout-ms N] [--] <command>...');
  });

  it('matches the file.read command', () => {
    expect(usageFor(read)).toBe('ah file read <path> [--from N] [--to N] [-n] [--max-bytes N] [--follow-symlinks]');
  });

  it('splits ids into command words', () => {
    expect(commandWords('git.tag.create')).toEqual(['ah', 'git', 'tag', 'create']);
  });
});

describe('argvForExample', () => {
  it('turns file.read arguments into argv', () => {
    expect(argvForExample(read, { path: 'README.md', from: 1, to: 20 })).toEqual([
      'ah',
      'file',
      'read',
      'README.md',
      '--from',
      '1',
      '--to',
      '20',
    ]);
    expect(argvForExample(read, { path: 'README.md', number_lines: true })).toEqual(['ah', 'file', 'read', 'README.md', '-n']);
  });

  it('expands positional arrays, repeats array flags and handles switches', () => {
    const args = { targets: ['a', 'b'], tags: ['x', 'y'], verbose: true, color: false, reference: 'HEAD', name: 'n', all: true };
    expect(argvForExample(sample, args)).toEqual([
      'ah',
      'demo',
      'do',
      'thing',
      'a',
      'b',
      '--tags',
      'x',
      '--tags',
      'y',
      '-v',
      '--color=false',
      '--ref',
      'HEAD',
      '--name',
      'n',
      '--all',
    ]);
    // A false switch whose default is false says nothing.
    expect(argvForExample(sample, { targets: ['a'], name: 'n', verbose: false })).toEqual([
      'ah',
      'demo',
      'do',
      'thing',
      'a',
      '--name',
      'n',
    ]);
  });

  it('puts the rest field after --', () => {
    expect(argvForExample(runner, { command: ['npm', 'test', '--', '-x'], timeout_ms: 5 })).toEqual([
      'ah',
      'demo',
      'exec',
      '--timeout-ms',
      '5',
      '--',
      'npm',
      'test',
      '--',
      '-x',
    ]);
  });

  it('moves dash-leading positional values behind --', () => {
    expect(argvForExample(sample, { targets: ['-weird'], name: 'n' })).toEqual([
      'ah',
      'demo',
      'do',
      'thing',
      '--name',
      'n',
      '--',
      '-weird',
    ]);
  });

  // The CLI parser must read back exactly the example's arguments, for every built-in command.
  const commands = BUILTIN_DOMAINS.flatMap((m) => m.commands as CommandDescriptor[]);
  const cases = [sample, runner, ...commands].flatMap((d) =>
    ('examples' in d ? (d as CommandDescriptor).examples : [{ description: 'sample', arguments: {} }]).map(
      (e) => [d.id, e.description, d, e.arguments] as const,
    ),
  );
  const extra = [
    ['demo.do.thing', 'everything', sample, { targets: ['a', '-b'], tags: ['x'], verbose: true, color: false, reference: 'r', name: 'n' }],
    ['demo.exec', 'rest', runner, { command: ['git', '--version'], timeout_ms: 9 }],
  ] as const;
  it.each([...cases, ...extra])('round-trips %s (%s) through the CLI parser', (id, _description, descriptor, args) => {
    const argv = argvForExample(descriptor, args);
    const words = commandWords(id).length;
    expect(parseCommandArgs(descriptor, argv.slice(words), emptyGlobals())).toEqual(args);
  });
});
