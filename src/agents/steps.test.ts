import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../test/helpers/tmp.js';
import type { AhError } from '../errors.js';
import { CliSite } from './cli-site.js';
import { contextFor } from './context.js';
import { describeSteps, executeSteps, type RunStep } from './steps.js';

const STDIO = { transport: 'stdio' as const, command: '/opt/ah/bin/ah.cjs', args: ['mcp', 'serve'] };
const HTTP = { transport: 'http' as const, url: 'http://127.0.0.1:8787/mcp' };

function site(): CliSite {
  return new CliSite({
    name: 'agent',
    program: '/usr/bin/agent',
    path: '/x/config.json',
    probe: async () => ({ present: false, current: null, legacy: false }),
    addArgs: (name, l) =>
      l.transport === 'stdio' ? ['mcp', 'add', name, '--', l.command, ...l.args] : ['mcp', 'add', name, '--url', l.url],
    removeArgs: (name) => ['mcp', 'remove', name],
  });
}

describe('CLI registrar plans', () => {
  test('absent: one add; replacing: remove, then add with the previous entry as its restore; legacy removed first', () => {
    expect(site().install(STDIO, { present: false, current: null, legacy: false })).toEqual([
      { kind: 'run', program: '/usr/bin/agent', name: 'agent', args: ['mcp', 'add', 'aihelper', '--', STDIO.command, 'mcp', 'serve'] },
    ]);
    const steps = site().install(HTTP, { present: true, current: STDIO, legacy: true }) as RunStep[];
    expect(steps.map((s) => s.args)).toEqual([
      ['mcp', 'remove', 'ah'],
      ['mcp', 'remove', 'aihelper'],
      ['mcp', 'add', 'aihelper', '--url', HTTP.url],
    ]);
    expect(steps[2]?.restore).toEqual(['mcp', 'add', 'aihelper', '--', STDIO.command, 'mcp', 'serve']);
    expect(describeSteps(steps)).toEqual([
      'run: agent mcp remove ah',
      'run: agent mcp remove aihelper',
      `run: agent mcp add aihelper --url ${HTTP.url}`,
    ]);
    expect(site().uninstall({ present: false, current: null, legacy: false })).toEqual([]);
  });
});

describe('dry-run display', () => {
  test('config diffs mask the values of secret-looking keys on the lines they show', () => {
    const before =
      '{ "mcpServers": { "gh": { "env": { "GITHUB_TOKEN": "ghp_abc123" }, "headers": { "Authorization": "Bearer xyz" } } } }\n';
    const after = before.replace('} } }', '}, "aihelper": {"command":"/opt/ah"} } }');
    const shown = describeSteps([{ kind: 'file', path: '/p/mcp.json', before, after, edit: () => after, config: true }]).join('\n');
    expect(shown).toContain('"aihelper"');
    expect(shown).not.toContain('ghp_abc123');
    expect(shown).not.toContain('xyz');
    expect(shown).toContain('"GITHUB_TOKEN": "[REDACTED]"');
  });
});

describe('executing steps', () => {
  test('a failing CLI step runs its restore, then fails with AI_AGENT_CLI_FAILED and the end of its stderr', async () => {
    const dir = tempDir();
    const ctx = contextFor({ env: { PATH: process.env.PATH }, cwd: dir, script: '/opt/ah', node: process.execPath, dryRun: false });
    const marker = join(dir, 'restored');
    const step: RunStep = {
      kind: 'run',
      program: '/bin/sh',
      name: 'agent',
      args: ['-c', 'echo "add failed: no such profile" >&2; exit 3'],
      restore: ['-c', `echo back > '${marker}'`],
    };
    const error = await executeSteps(ctx, [step]).catch((e: AhError) => e);
    expect(error).toMatchObject({ code: 'AI_AGENT_CLI_FAILED', detail: 'add failed: no such profile' });
    expect((error as AhError).message).toContain('exited with 3');
    expect(readFileSync(marker, 'utf8')).toBe('back\n');
  });

  test('file steps re-apply their edit to the file as it is when they run; null deletes', async () => {
    const dir = tempDir();
    const ctx = contextFor({ env: {}, cwd: dir, script: '/opt/ah', node: process.execPath, dryRun: false });
    const path = join(dir, 'f.txt');
    writeFileSync(path, 'written by someone else meanwhile\n');
    await executeSteps(ctx, [{ kind: 'file', path, before: null, after: 'x', edit: (t) => `${t ?? ''}ours\n` }]);
    expect(readFileSync(path, 'utf8')).toBe('written by someone else meanwhile\nours\n');
    await executeSteps(ctx, [{ kind: 'file', path, before: 'x', after: null, edit: () => null }]);
    expect(existsSync(path)).toBe(false);
  });
});
