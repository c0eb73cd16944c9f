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
    const removed = setAt(added, ['mcpServers', 'aihelper'], undefined);
    expect(parseConfig(removed, 'f')).toEqual(parseConfig(PLANTED, 'f'));
    expect(removed).toContain('"zeta": { "command": "z" }, // keep me');
    expect(removed).toContain('/* trailing block comment */');
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
