import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runAh } from '../helpers/cli.js';
import { installTestPlugin } from '../helpers/plugins.js';
import { tempDir } from '../helpers/tmp.js';

describe('ah plugins', () => {
  it('lists domains with source and state, and renders columns', async () => {
    const { env } = isolatedEnv();
    const r = (await runAh(['--json', 'plugins', 'list'], { env })).json<{ plugins: Record<string, unknown>[] }>();
    expect(r.plugins.map((p) => p.domain)).toEqual([
      'ai',
      'ctx',
      'file',
      'git',
      'github',
      'gitlab',
      'http',
      'mcp',
      'ollama',
      'plugins',
      'postgres',
      'project',
      'run',
      'search',
      'secrets',
      'task',
    ]);
    for (const domain of ['github', 'gitlab', 'http', 'ollama', 'postgres'])
      expect(r.plugins.find((p) => p.domain === domain)).toMatchObject({ source: 'bundled', state: 'enabled' });
    expect(r.plugins.find((p) => p.domain === 'postgres')).toMatchObject({ plugin_name: 'ah-plugin-postgres' });
    expect(r.plugins.find((p) => p.domain === 'file')).toMatchObject({
      plugin_name: 'ah-file',
      source: 'builtin',
      state: 'enabled',
      mcp_exposed: true,
      abi_version: 1,
    });
    expect(r.plugins.find((p) => p.domain === 'mcp')).toMatchObject({ mcp_exposed: false, mcp_omission_reason: expect.any(String) });
    const text = await runAh(['plugins', 'list'], { env });
    expect(text.stdout.split('\n')[0]).toMatch(/^DOMAIN\s+PLUGIN\s+SOURCE\s+STATE\s+DESCRIPTION$/);
  });

  it('disables, enables and resets domains, persisting plugins.json', async () => {
    const { env, configDir } = isolatedEnv();
    const dir = tempDir();
    writeFileSync(join(dir, 'x.txt'), 'x');
    expect((await runAh(['--json', 'plugins', 'disable', 'file'], { env })).json()).toEqual({
      command: 'plugins.disable',
      domain: 'file',
      changed: true,
      config_path: join(configDir, 'plugins.json'),
      disabled_domains: ['file'],
    });
    expect(JSON.parse(readFileSync(join(configDir, 'plugins.json'), 'utf8'))).toEqual({ version: 1, disabled_domains: ['file'] });
    const blocked = await runAh(['file', 'read', 'x.txt'], { cwd: dir, env });
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain("Hint: Run 'ah plugins enable file'");
    expect((await runAh(['--json', 'file', 'read', 'x.txt'], { cwd: dir, env })).errorJson()).toMatchObject({ code: 'DOMAIN_DISABLED' });
    expect((await runAh(['--json', 'plugins', 'disable', 'file'], { env })).json()).toMatchObject({ changed: false });
    expect((await runAh(['--json', 'plugins', 'list', '--state', 'disabled'], { env })).json()).toMatchObject({
      plugins: [{ domain: 'file' }],
    });
    expect((await runAh(['--json', 'plugins', 'enable', 'file'], { env })).json()).toMatchObject({ changed: true, disabled_domains: [] });
    await runAh(['plugins', 'disable', 'git'], { env });
    await runAh(['plugins', 'disable', 'run'], { env });
    expect((await runAh(['--json', 'plugins', 'reset', '--all'], { env })).json()).toMatchObject({ domain: null, disabled_domains: [] });
  });

  it('refuses host domains, unknown domains and ambiguous resets', async () => {
    const { env } = isolatedEnv();
    expect((await runAh(['--json', 'plugins', 'disable', 'plugins'], { env })).errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT' });
    const unknown = await runAh(['plugins', 'disable', 'fiel'], { env });
    expect(unknown.stderr).toContain("Did you mean 'file'?");
    expect((await runAh(['--json', 'plugins', 'reset'], { env })).errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('creates the config directory on the first change', async () => {
    const { env, configDir } = isolatedEnv();
    const fresh = join(configDir, 'not', 'yet');
    const r = await runAh(['--json', 'plugins', 'disable', 'git'], { env: { ...env, AH_CONFIG_DIR: fresh } });
    expect(r.json()).toMatchObject({ changed: true, config_path: join(fresh, 'plugins.json'), disabled_domains: ['git'] });
  });

  it('reports a malformed plugins.json with a code and a hint', async () => {
    const { env, configDir } = isolatedEnv();
    writeFileSync(join(configDir, 'plugins.json'), '{not json');
    const r = await runAh(['--json', 'plugins', 'list'], { env });
    expect(r.code).toBe(1);
    expect(r.errorJson()).toMatchObject({ code: 'JSON_DESERIALIZATION_FAILED', cause: expect.stringContaining('plugins.json') });
    expect((await runAh(['plugins', 'list'], { env })).stderr).toContain('delete it');
  });

  it('loads an external plugin module and warns about invalid ones', async () => {
    const { env, configDir } = isolatedEnv();
    installTestPlugin(configDir);
    writeFileSync(join(configDir, 'plugins', 'broken.mjs'), 'export default { domain: "Bad Name" };');
    const list = await runAh(['--json', 'plugins', 'list'], { env });
    expect(list.stderr).toContain('warning: skipped plugin broken.mjs');
    expect(list.json<{ plugins: Record<string, unknown>[] }>().plugins.find((p) => p.domain === 'testkit')).toMatchObject({
      source: 'external',
    });
    expect((await runAh(['--json', 'testkit', 'echo', 'hi'], { env })).json()).toMatchObject({ text: 'hi' });
    const quiet = await runAh(['--quiet', 'plugins', 'list'], { env });
    expect(quiet.stderr).toBe('');
  });

  it('lets an external plugin replace a built-in domain, with a warning', async () => {
    const { env, configDir } = isolatedEnv();
    installTestPlugin(configDir);
    const source = readFileSync(join(configDir, 'plugins', 'test-plugin.mjs'), 'utf8').replaceAll('testkit', 'run');
    writeFileSync(join(configDir, 'plugins', 'zz-run.mjs'), source);
    const list = await runAh(['--json', 'plugins', 'list'], { env });
    expect(list.stderr).toContain("replaces the 'run' domain");
    expect(list.json<{ plugins: Record<string, unknown>[] }>().plugins.find((p) => p.domain === 'run')).toMatchObject({
      plugin_name: 'ah-run',
      source: 'external',
    });
    expect((await runAh(['--json', 'run', 'echo', 'hi'], { env })).json()).toMatchObject({ command: 'run.echo', text: 'hi' });
  });
});

describe('ah ai info', () => {
  it('describes enabled domains with usage and example argv', async () => {
    const { env } = isolatedEnv();
    const r = (await runAh(['--json', 'ai', 'info', '--domain', 'file'], { env })).json<{
      plugins: { commands: { name: string; usage: string; examples: { argv: string[] }[] }[] }[];
    }>();
    const read = r.plugins[0]?.commands.find((c) => c.name === 'file.read');
    expect(read?.usage).toMatch(/^ah file read <path> \[--from N\] \[--to N\] \[-n\] \[--max-bytes N\] \[--follow-symlinks\]$/);
    expect(read?.examples[1]?.argv).toEqual(['ah', 'file', 'read', 'README.md', '--from', '1', '--to', '20', '-n']);
    expect((await runAh(['--json', 'ai', 'info', '--domain', 'nope'], { env })).errorJson()).toMatchObject({ code: 'DOMAIN_NOT_FOUND' });
    const all = (await runAh(['--json', 'ai', 'info'], { env })).json<{ global_options: unknown[]; host_commands: { name: string }[] }>();
    expect(all.host_commands.map((h) => h.name)).toContain('mcp serve');
    expect(all.global_options.length).toBe(6);
  });

  it('leaves disabled domains out and refuses them as a filter', async () => {
    const { env } = isolatedEnv();
    await runAh(['plugins', 'disable', 'git'], { env });
    const all = (await runAh(['--json', 'ai', 'info'], { env })).json<{ plugins: { domain: string }[] }>();
    expect(all.plugins.map((p) => p.domain)).not.toContain('git');
    expect(all.plugins.map((p) => p.domain)).toContain('file');
    expect((await runAh(['--json', 'ai', 'info', '--domain', 'git'], { env })).errorJson()).toMatchObject({ code: 'DOMAIN_DISABLED' });
    const text = await runAh(['ai', 'info'], { env });
    expect(text.stdout).toContain('Host commands (CLI only):');
    expect(text.stdout).toContain('## file — ');
  });
});
