// The built `ah` as a child process: globals, help, error shapes and exit codes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runAh } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('ah CLI', () => {
  it('prints the version on the fast path', async () => {
    const r = await runAh(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ah \d+\.\d+\.\d+/);
    expect((await runAh(['-V'])).stdout).toBe(r.stdout);
  });

  it('prints root, domain and command help generated from the catalog', async () => {
    const root = await runAh(['--help']);
    expect(root.code).toBe(0);
    for (const domain of ['ai', 'file', 'git', 'mcp', 'plugins', 'run', 'search']) expect(root.stdout).toContain(`  ${domain}`);
    const domain = await runAh(['file', '--help']);
    expect(domain.stdout).toContain('read');
    expect(domain.stdout).toContain('tree');
    const command = await runAh(['file', 'read', '--help']);
    expect(command.stdout).toContain('Usage: ah file read <path>');
    expect(command.stdout).toContain('--from');
    expect(command.stdout).toContain('-n, --number-lines');
    expect(command.stdout).toContain('Examples:');
    expect((await runAh(['help', 'file', 'read'])).stdout).toBe(command.stdout);
  });

  it('suggests a near-miss domain, command and flag in text mode', async () => {
    const domain = await runAh(['fiel', 'read', 'x']);
    expect(domain.code).toBe(1);
    expect(domain.stderr).toContain("ah: 'fiel' is not a command");
    expect(domain.stderr).toContain("Did you mean 'file'?");
    expect(domain.stderr).toContain("Run 'ah --help'");
    const command = await runAh(['file', 'raed', 'x']);
    expect(command.stderr).toContain("Did you mean 'ah file read'?");
    const flag = await runAh(['file', 'read', 'x', '--frm', '2']);
    expect(flag.stderr).toContain('Did you mean --from?');
    expect(flag.stderr).toContain("Run 'ah file read --help'");
  });

  it('reports errors as one JSON diagnostic on stderr with --json', async () => {
    const r = await runAh(['--json', 'file', 'read', 'missing.txt'], { cwd: tempDir() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const d = r.errorJson();
    expect(Object.keys(d)).toEqual(['domain', 'operation', 'code', 'message', 'cause', 'exit_code_hint']);
    expect(d).toMatchObject({ code: 'FILE_NOT_FOUND', exit_code_hint: 1 });
  });

  it('rejects a bad --limit and a missing required argument', async () => {
    expect((await runAh(['--json', '--limit', '0', 'file', 'read', 'x'])).errorJson()).toMatchObject({ code: 'INVALID_RANGE' });
    expect((await runAh(['--json', 'file', 'read'])).errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((await runAh(['--json', 'file', 'head', 'x', '--lines', 'many'])).errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('applies --cwd, --limit and --quiet, and fails on a bad --cwd', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), '1\n2\n3\n4\n');
    const r = await runAh(['--cwd', dir, '--limit', '2', '--json', 'file', 'read', 'a.txt']);
    expect(r.json()).toMatchObject({ content: '1\n2', truncated: true, line_count: 2 });
    const quiet = await runAh(['--cwd', dir, '--quiet', 'file', 'read', 'a.txt']);
    expect(quiet).toMatchObject({ code: 0, stdout: '' });
    const bad = await runAh(['--json', '--cwd', join(dir, 'nope'), 'file', 'read', 'a.txt']);
    expect(bad.errorJson()).toMatchObject({ code: 'CWD_CHANGE_FAILED' });
  });

  it('rejects an empty AH_CONFIG_DIR', async () => {
    const r = await runAh(['--json', 'plugins', 'list'], { env: { ...isolatedEnv().env, AH_CONFIG_DIR: '' } });
    expect(r.code).toBe(1);
    expect(r.errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('never colours output when NO_COLOR is set or output is not a TTY', async () => {
    const r = await runAh(['nope']);
    expect(r.stderr.includes('\u001b[')).toBe(false);
  });
});
