import { describe, expect, test } from 'vitest';
import { AhError } from '../errors.js';
import { parseConfig, setAt, valueAt } from './jsonc.js';

const PLANTED = `{
  // servers the user set up by hand
  "mcpServers": {
    "zeta": { "command": "z" }, // keep me
    "alpha": {
      "command": "a",
      "args": ["x",],
    },
  },
  /* trailing block comment */
  "theme": "dark",
}
`;

describe('JSONC config edits', () => {
  test('adding an entry keeps comments, trailing commas and key order byte for byte', () => {
    const next = setAt(PLANTED, ['mcpServers', 'aihelper'], { command: '/abs/ah', args: ['mcp', 'serve'] });
    expect(next).toContain('// servers the user set up by hand');
    expect(next).toContain('"zeta": { "command": "z" }, // keep me');
    expect(next).toContain('"args": ["x",],');
    expect(next).toContain('/* trailing block comment */');
    const keys = Object.keys(parseConfig(next, 'f') as object);
    expect(keys).toEqual(['mcpServers', 'theme']);
    expect(Object.keys(valueAt(parseConfig(next, 'f'), ['mcpServers']) as object)).toEqual(['zeta', 'alpha', 'aihelper']);
    expect(valueAt(parseConfig(next, 'f'), ['mcpServers', 'aihelper'])).toEqual({ command: '/abs/ah', args: ['mcp', 'serve'] });
  });

  test('removing the entry again gives back the planted text', () => {
    const added = setAt(PLANTED, ['mcpServers', 'aihelper'], { command: '/abs/ah' });
    expect(setAt(added, ['mcpServers', 'aihelper'], undefined)).toBe(PLANTED);
  });

  const SHAPES: Record<string, string> = {
    'no trailing commas': '{\n  "mcpServers": {\n    "a": { "command": "a" }\n  }\n}\n',
    'comment after the last sibling': '{\n  "mcpServers": {\n    "a": { "command": "a" } // mine\n  }\n}\n',
    'empty object': '{\n  "theme": "x",\n  "mcpServers": {}\n}\n',
    'no parent key': '{\n  // only settings\n  "theme": "x"\n}\n',
    'empty root': '{}\n',
    'one-line object': '{ "mcpServers": { "a": { "command": "a" } } }\n',
    'tabs and CRLF': '{\r\n\t"mcpServers": {\r\n\t\t"a": 1,\r\n\t},\r\n}\r\n',
  };
  for (const [name, planted] of Object.entries(SHAPES)) {
    test(`insert keeps every planted line (at most a comma added) and parses: ${name}`, () => {
      const entry = { command: '/abs/ah', args: ['mcp', 'serve'] };
      const added = setAt(planted, ['mcpServers', 'aihelper'], entry);
      expect(valueAt(parseConfig(added, 'f'), ['mcpServers', 'aihelper'])).toEqual(entry);
      const rest = parseConfig(added, 'f') as Record<string, any>;
      delete rest.mcpServers.aihelper;
      expect(rest).toEqual({ mcpServers: {}, ...parseConfig(planted, 'f') });
      if (!['empty object', 'empty root', 'no parent key', 'one-line object'].includes(name)) {
        const lines = added.split(/\r?\n/);
        for (const line of planted.split(/\r?\n/))
          expect(lines.some((l) => l === line || l === `${line},` || l.startsWith(`${line.replace(/ \/\/.*$/, '')},`))).toBe(true);
      }
      expect(added.includes('\r\n')).toBe(planted.includes('\r\n'));
      // Install then uninstall: what the user planted is back (a comma or an empty parent we added may stay).
      const removed = setAt(added, ['mcpServers', 'aihelper'], undefined);
      expect(parseConfig(removed, 'f')).toEqual({
        ...(name === 'no parent key' || name === 'empty root' ? { mcpServers: {} } : {}),
        ...parseConfig(planted, 'f'),
      });
      if (!['no parent key', 'empty root'].includes(name)) expect(removed).toBe(planted);
    });
  }

  test('removal keeps comments on other lines and drops the comma our entry needed', () => {
    const middle = '{\n  "s": {\n    "a": 1, // mine\n    "aihelper": { "x": 1 }, // ours\n    "b": 2\n  }\n}\n';
    expect(setAt(middle, ['s', 'aihelper'], undefined)).toBe('{\n  "s": {\n    "a": 1, // mine\n    "b": 2\n  }\n}\n');
    const last = '{\n  "s": {\n    "a": 1, // mine\n    "aihelper": { "x": 1 }\n  }\n}\n';
    expect(setAt(last, ['s', 'aihelper'], undefined)).toBe('{\n  "s": {\n    "a": 1 // mine\n  }\n}\n');
    expect(setAt('{ "s": { "a": 1, "aihelper": 2, "b": 3 } }', ['s', 'aihelper'], undefined)).toBe('{ "s": { "a": 1, "b": 3 } }');
    expect(setAt('{ "s": { "a": 1, "aihelper": 2 } }', ['s', 'aihelper'], undefined)).toBe('{ "s": { "a": 1 } }');
    expect(setAt('{ "s": { "aihelper": 2 } }', ['s', 'aihelper'], undefined)).toBe('{ "s": {} }');
    expect(setAt('{\n  "s": {\n    "aihelper": 2\n  }\n}\n', ['s', 'aihelper'], undefined)).toBe('{\n  "s": {}\n}\n');
    expect(setAt('{ "s": {} }', ['s', 'aihelper'], undefined)).toBe('{ "s": {} }');
  });

  test('replacing an entry touches only that entry', () => {
    const before = setAt(PLANTED, ['mcpServers', 'aihelper'], { command: 'old' });
    const after = setAt(before, ['mcpServers', 'aihelper'], { url: 'http://127.0.0.1:8787/mcp' });
    expect(after.replace(/"aihelper": \{[^}]*\}/, '')).toBe(before.replace(/"aihelper": \{[^}]*\}/, ''));
  });

  test('a missing file becomes a fresh pretty file; tabs and CRLF are kept', () => {
    expect(JSON.parse(setAt(null, ['servers', 'aihelper'], { type: 'stdio' }))).toEqual({ servers: { aihelper: { type: 'stdio' } } });
    const tabbed = '{\r\n\t"servers": {\r\n\t\t"x": 1\r\n\t}\r\n}\r\n';
    const next = setAt(tabbed, ['servers', 'aihelper'], { a: 1 });
    expect(next).toContain('\r\n\t\t"aihelper"');
    expect(next.replace(/\r\n/g, '')).not.toContain('\n');
  });

  test('an unparsable file is AI_CONFIG_UNPARSABLE; a non-object top level too; empty is {}', () => {
    for (const text of ['{ "a": ', '[1, 2]', '{ "a": 1 } trailing', '"text"']) {
      let error: unknown;
      try {
        parseConfig(text, '/p/settings.json');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AhError);
      expect((error as AhError).code).toBe('AI_CONFIG_UNPARSABLE');
      expect((error as AhError).message).toContain('/p/settings.json');
    }
    expect(parseConfig('  \n', 'f')).toEqual({});
  });
});
