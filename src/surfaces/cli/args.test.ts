import { describe, expect, it } from 'vitest';
import { RootObject, Type } from '../../catalog/schema.js';
import { parseCommandArgs } from './args.js';
import { emptyGlobals } from './globals.js';

const spec = {
  id: 'demo.cmd',
  inputSchema: RootObject({
    path: Type.String(),
    from: Type.Optional(Type.Integer({ minimum: 1 })),
    number_lines: Type.Boolean({ default: false }),
    globs: Type.Array(Type.String(), { default: [] }),
    paths: Type.Array(Type.String(), { default: [] }),
    all: Type.Optional(Type.Literal(true)),
  }),
  cli: { positionals: ['path', 'paths'], short: { n: 'number_lines' }, aliases: { glob: 'globs' } },
};

const runSpec = {
  id: 'run.check',
  inputSchema: RootObject({ command: Type.Array(Type.String()), timeout_secs: Type.Integer({ default: 600 }) }),
  cli: { rest: 'command' },
};

describe('parseCommandArgs', () => {
  it('maps positionals, kebab flags, switches, short flags and repeated arrays', () => {
    const globals = emptyGlobals();
    const input = parseCommandArgs(spec, ['a.txt', 'b', 'c', '--from', '3', '-n', '--glob', '*.ts', '--glob=*.md', '--all'], globals);
    expect(input).toEqual({ path: 'a.txt', paths: ['b', 'c'], from: 3, number_lines: true, globs: ['*.ts', '*.md'], all: true });
  });

  it('lifts global options found among command flags', () => {
    const globals = emptyGlobals();
    parseCommandArgs(spec, ['x', '--json', '--limit', '5', '--quiet'], globals);
    expect(globals).toMatchObject({ json: true, limit: 5, quiet: true });
  });

  it('rejects unknown flags with a suggestion', () => {
    expect(() => parseCommandArgs(spec, ['x', '--frm', '2'], emptyGlobals())).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', hint: 'Did you mean --from?' }),
    );
  });

  it('rejects a non-integer value for an integer flag', () => {
    expect(() => parseCommandArgs(spec, ['x', '--from', 'two'], emptyGlobals())).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('rejects --limit 0 with INVALID_RANGE', () => {
    expect(() => parseCommandArgs(spec, ['x', '--limit', '0'], emptyGlobals())).toThrowError(
      expect.objectContaining({ code: 'INVALID_RANGE' }),
    );
  });

  it('keeps everything from the child program on verbatim for a rest field', () => {
    const globals = emptyGlobals();
    const input = parseCommandArgs(runSpec, ['--timeout-secs', '5', 'node', '--json', '-e', 'x', '--', 'y'], globals);
    expect(input).toEqual({ timeout_secs: 5, command: ['node', '--json', '-e', 'x', '--', 'y'] });
    expect(globals.json).toBe(false);
  });

  it('starts the rest after an explicit --', () => {
    const input = parseCommandArgs(runSpec, ['--json', '--', '--weird-program', 'a'], emptyGlobals());
    expect(input).toEqual({ command: ['--weird-program', 'a'] });
  });

  it('rejects an extra positional', () => {
    const single = { id: 'demo.one', inputSchema: RootObject({ path: Type.String() }), cli: { positionals: ['path'] } };
    expect(() => parseCommandArgs(single, ['a', 'b'], emptyGlobals())).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
