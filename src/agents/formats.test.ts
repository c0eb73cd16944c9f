import { describe, expect, test } from 'vitest';
import { claudeEntry, copilotCliEntry, cursorEntry, geminiEntry, opencodeEntry, readLaunch, sameLaunch, vscodeEntry } from './formats.js';
import type { Launch } from './types.js';

const STDIO: Launch = { transport: 'stdio', command: '/opt/ah/bin/ah.cjs', args: ['mcp', 'serve'] };
const HTTP: Launch = { transport: 'http', url: 'http://127.0.0.1:8787/mcp' };

describe('client entry formats', () => {
  test('every format reads back as the launch it was written from', () => {
    for (const format of [claudeEntry, geminiEntry, cursorEntry, vscodeEntry, copilotCliEntry, opencodeEntry]) {
      expect(readLaunch(format(STDIO))).toEqual(STDIO);
      expect(readLaunch(format(HTTP))).toEqual(HTTP);
    }
  });

  test('the documented shapes', () => {
    expect(claudeEntry(STDIO)).toEqual({ type: 'stdio', command: STDIO.command, args: ['mcp', 'serve'], env: {} });
    expect(opencodeEntry(STDIO)).toEqual({ type: 'local', command: [STDIO.command, 'mcp', 'serve'], enabled: true });
    expect(opencodeEntry(HTTP)).toEqual({ type: 'remote', url: HTTP.url, enabled: true });
    expect(vscodeEntry(HTTP)).toEqual({ type: 'http', url: HTTP.url });
    expect(geminiEntry(HTTP)).toEqual({ httpUrl: HTTP.url });
    expect(copilotCliEntry(STDIO)).toEqual({ tools: ['*'], type: 'local', command: STDIO.command, args: ['mcp', 'serve'] });
  });

  test('what the CLIs write themselves is understood (gemini url+type, codex TOML table)', () => {
    expect(readLaunch({ url: HTTP.url, type: 'http' })).toEqual(HTTP);
    expect(readLaunch({ command: STDIO.command, args: ['mcp', 'serve'] })).toEqual(STDIO);
    expect(readLaunch({ type: 'stdio' })).toBeNull();
    expect(readLaunch('text')).toBeNull();
  });

  test('sameLaunch compares transport, command and args, or the URL', () => {
    expect(sameLaunch(STDIO, { ...STDIO, args: ['mcp', 'serve'] })).toBe(true);
    expect(sameLaunch(STDIO, { ...STDIO, args: ['mcp'] })).toBe(false);
    expect(sameLaunch(STDIO, HTTP)).toBe(false);
    expect(sameLaunch(HTTP, { transport: 'http', url: 'http://localhost:8787/mcp' })).toBe(false);
    expect(sameLaunch(null, HTTP)).toBe(false);
  });
});
