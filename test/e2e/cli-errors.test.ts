// Errors a person can act on: a fixed set lists its choices, a missing value is named in CLI words
// with the usage line, an unknown command of a known domain has its own code and points at help.
import { describe, expect, it } from 'vitest';
import { runAh } from '../helpers/cli.js';
import { connectStdio } from '../helpers/mcp.js';

const firstLine = (text: string) => text.split('\n')[0] ?? '';

describe('CLI errors', () => {
  it.each([
    [['mcp', 'serve', '--transport', 'tcp'], '--transport must be one of: stdio, http'],
    [['plugins', 'list', '--state', 'sleeping'], '--state must be one of: enabled, disabled'],
    [['secrets', 'add', 'x', '--kind', 'nope'], '--kind must be one of: postgres, http-basic, ssh-key, github-token, gitlab-token'],
    [['http', 'request', 'http://127.0.0.1:9/', '--method', 'FETCH'], '--method must be one of:'],
  ])('%j lists the choices', async (args, expected) => {
    const r = await runAh(args);
    expect(r.code).toBe(1);
    expect(firstLine(r.stderr)).toContain(expected);
    expect(r.stderr).toContain('[INVALID_ARGUMENT]');
    expect(r.stderr).not.toMatch(/rule: |must be equal to constant/);
  });

  it('names a missing argument in CLI words, with the usage line', async () => {
    const r = await runAh(['file', 'read']);
    expect(r.code).toBe(1);
    expect(firstLine(r.stderr)).toBe('ah: invalid arguments for ah file read: missing <path>');
    expect(r.stderr).toContain('Usage: ah file read <path>');
    const flag = await runAh(['--json', 'github', 'workflow', 'run', 'ci.yml', '--repo', 'o/r']);
    expect(flag.errorJson()).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'invalid arguments for ah github workflow run: missing --ref',
    });
  });

  it('gives an unknown command of a known domain COMMAND_NOT_FOUND, a suggestion and the domain help', async () => {
    const r = await runAh(['file', 'raed', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("'raed' is not a command of 'ah file'");
    expect(r.stderr).toContain("Did you mean 'ah file read'?");
    expect(r.stderr).toContain('ah file --help');
    expect((await runAh(['--json', 'file', 'raed'])).errorJson()).toMatchObject({ code: 'COMMAND_NOT_FOUND', domain: 'file' });
    expect((await runAh(['--json', 'fiel', 'read'])).errorJson()).toMatchObject({ code: 'DOMAIN_NOT_FOUND' });
  });

  it('uses MCP property names over MCP', async () => {
    const s = await connectStdio();
    try {
      const missing = (await s.client.callTool({ name: 'ah.file.read', arguments: {} })) as {
        _meta?: Record<string, { message?: string }>;
      };
      expect(missing._meta?.['dev.aihelper/diagnostic']?.message).toBe('invalid arguments for file.read: missing path');
      const choice = (await s.client.callTool({ name: 'ah.plugins.list', arguments: { state: 'x' } })) as {
        _meta?: Record<string, { message?: string; code?: string }>;
      };
      expect(choice._meta?.['dev.aihelper/diagnostic']).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: 'invalid arguments for plugins.list: state must be one of: enabled, disabled',
      });
    } finally {
      await s.close();
    }
  });
});
