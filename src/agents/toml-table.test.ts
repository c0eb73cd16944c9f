import { parse } from 'smol-toml';
import { describe, expect, test } from 'vitest';
import { editServerTable } from './toml-table.js';

const STDIO = { transport: 'stdio' as const, command: '/opt/ah/bin/ah.cjs', args: ['mcp', 'serve'] };
const PLANTED =
  '# my codex\nmodel = "gpt-5" # fast\n\n[mcp_servers.other]\ncommand = "other-mcp" # keep\nargs = ["x"]\n\n[profiles.dev]\nmodel = "o3"\n';

describe('Codex server table edits', () => {
  test('add appends our table; remove gives back the planted text byte for byte', () => {
    const added = editServerTable(PLANTED, 'aihelper', STDIO) as string;
    expect(added.startsWith(PLANTED)).toBe(true);
    expect(parse(added)).toMatchObject({
      mcp_servers: { aihelper: { command: STDIO.command, args: STDIO.args }, other: { command: 'other-mcp' } },
    });
    expect(editServerTable(added, 'aihelper', undefined)).toBe(PLANTED);
  });

  test('replace in the middle keeps the tables around it; http form; quoted names', () => {
    const middle = PLANTED.replace(
      '[profiles.dev]',
      '[mcp_servers.aihelper]\ncommand = "old"\n\n[mcp_servers.aihelper.env]\nA = "1"\n\n[profiles.dev]',
    );
    const replaced = editServerTable(middle, 'aihelper', { transport: 'http', url: 'http://127.0.0.1:8787/mcp' }) as string;
    expect(parse(replaced)).toEqual({
      ...parse(PLANTED),
      mcp_servers: { ...(parse(PLANTED).mcp_servers as object), aihelper: { url: 'http://127.0.0.1:8787/mcp' } },
    });
    expect(editServerTable(middle, 'aihelper', undefined)).toBe(PLANTED);
    const quoted = editServerTable('[mcp_servers."ah"]\ncommand = "x"\n', 'ah', undefined);
    expect(quoted).toBe('');
    expect(editServerTable('', 'aihelper', STDIO)).toBe(
      '[mcp_servers.aihelper]\ncommand = "/opt/ah/bin/ah.cjs"\nargs = ["mcp", "serve"]\n',
    );
  });

  test('an entry in another form (inline or dotted) is left to the Codex CLI', () => {
    expect(editServerTable('mcp_servers = { aihelper = { command = "x" } }\n', 'aihelper', STDIO)).toBeNull();
    expect(editServerTable('[mcp_servers]\naihelper.command = "x"\n', 'aihelper', undefined)).toBeNull();
  });
});
