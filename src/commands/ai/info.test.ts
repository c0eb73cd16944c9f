import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogSnapshot, defineCatalog } from '../../catalog/registry.js';
import { compile } from '../../catalog/schema.js';
import { fakeHost } from '../../../test/fixtures/plugins/fake-host.js';
import { sampleModules } from '../../../test/fixtures/plugins/sample-catalog.js';
import { testContext, testHost } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { BUILTIN_DOMAINS } from '../index.js';
import { info } from './info.js';

async function setup(disabled: string[] = []) {
  const dir = tempDir();
  const host = await fakeHost(sampleModules(), join(dir, 'plugins.json'));
  if (disabled.length > 0) await host.setDisabledDomains(() => disabled);
  return testContext({ cwd: dir, host });
}

describe('ai.info', () => {
  it('describes every enabled domain, the global options and the host commands', async () => {
    const out = await info.run({}, await setup(['file']));
    expect(out.command).toBe('ai.info');
    expect(out.domain_filter).toBeNull();
    expect(out.global_options.map((g) => g.flag)).toEqual(['--cwd PATH', '--limit N', '--json', '--quiet', '-V, --version', '-h, --help']);
    expect(out.host_commands.map((h) => h.name)).toEqual(['mcp serve', 'mcp service', 'secrets', 'ai install']);
    expect(out.host_commands[0]).toMatchObject({ name: 'mcp serve' });
    expect(out.host_commands[0]?.usage).toContain(
      'mcp serve [--transport stdio|http] [--port PORT] [--max-active N] [--default-timeout-ms MS]',
    );
    expect(out.plugins.map((p) => p.domain)).toEqual(['ai', 'git', 'mcp', 'plugins', 'testkit']);
    expect(out.plugin_count).toBe(5);
    expect(out.plugins.find((p) => p.domain === 'git')).toEqual({
      plugin_name: 'ah-git',
      domain: 'git',
      description: 'The git domain.',
      commands: [
        {
          name: 'git.status',
          summary: 'Sample git.status.',
          usage: 'ah git status <name>',
          examples: [{ description: 'greet', argv: ['ah', 'git', 'status', 'x'] }],
        },
      ],
      notes: ['Needs a repository.'],
    });
    expect(out.plugins.find((p) => p.domain === 'mcp')).toMatchObject({ commands: [], notes: [expect.stringMatching(/CLI-only/)] });
    expect(out.plugins.find((p) => p.domain === 'plugins')?.commands.map((c) => c.name)).toEqual([
      'plugins.disable',
      'plugins.enable',
      'plugins.list',
      'plugins.reset',
    ]);
  });

  it('filters to one domain (normalised); host commands only for mcp', async () => {
    const ctx = await setup();
    const git = await info.run({ domain: ' Git' }, ctx);
    expect(git).toMatchObject({ domain_filter: 'git', host_commands: [], plugin_count: 1 });
    expect(git.plugins.map((p) => p.domain)).toEqual(['git']);
    const mcp = await info.run({ domain: 'mcp' }, ctx);
    expect(mcp.host_commands.map((h) => h.name)).toEqual(['mcp serve', 'mcp service']);
    const ai = await info.run({ domain: 'ai' }, ctx);
    expect(ai.host_commands.map((h) => h.name)).toEqual(['ai install']);
    expect(ai.host_commands[0]?.usage).toContain('ah ai status [target]');
  });

  it('renders a one-domain manual as that domain only, its host commands inside its section', async () => {
    const ctx = await setup();
    const text = info.render?.(await info.run({ domain: 'mcp' }, ctx)) ?? '';
    expect(text.startsWith('## mcp — ')).toBe(true);
    expect(text).not.toContain('Host commands');
    expect(text).toContain('ah [--cwd PATH] [--limit N] mcp serve');
    const git = info.render?.(await info.run({ domain: 'git' }, ctx)) ?? '';
    expect(git.startsWith('## git — ')).toBe(true);
    expect(git).not.toContain('mcp serve');
  });

  it('refuses an unknown or disabled domain filter', async () => {
    const ctx = await setup(['file']);
    await expect(info.run({ domain: 'gti' }, ctx)).rejects.toMatchObject({ code: 'DOMAIN_NOT_FOUND', hint: "Did you mean 'git'?" });
    await expect(info.run({ domain: 'file' }, ctx)).rejects.toMatchObject({
      code: 'DOMAIN_DISABLED',
      hint: "Run 'ah plugins enable file' to enable it.",
    });
  });

  it('produces output valid against its schema for the real built-in catalog', async () => {
    const snapshot = new CatalogSnapshot(defineCatalog(BUILTIN_DOMAINS, { verifyExamples: () => false }), [], 1);
    const ctx = testContext({
      cwd: tempDir(),
      host: {
        catalog: () => snapshot,
        setDisabledDomains: async () => ({ disabled: [], changed: false }),
        pluginSettingsPath: '/x',
        vault: testHost.vault,
      },
    });
    const out = await info.run({}, ctx);
    const validate = compile(info.outputSchema);
    expect(validate(out)).toBe(true);
    const read = out.plugins.find((p) => p.domain === 'file')?.commands.find((c) => c.name === 'file.read');
    expect(read?.examples.map((e) => e.argv)).toContainEqual(['ah', 'file', 'read', 'README.md', '--from', '1', '--to', '20', '-n']);
  });

  it('renders a readable manual', async () => {
    const text = info.render?.(await info.run({}, await setup())) ?? '';
    expect(text).toContain('Global options:');
    expect(text).toContain('## git — The git domain.');
    expect(text).toContain('  ah git status <name>');
    expect(text).toContain('    e.g. ah git status x   # greet');
    expect(text).toContain('  note: Needs a repository.');
    expect(text).toContain('Host commands (CLI only):\n  ah [--cwd PATH] [--limit N] mcp serve');
    expect(text).toContain('    e.g. ah mcp serve --transport http --port 8787   # shared local HTTP server');
    expect(text.endsWith('\n')).toBe(false);
  });

  it('quotes example words that a shell would split', () => {
    const text = info.render?.({
      command: 'ai.info',
      domain_filter: 'x',
      global_options: [],
      host_commands: [],
      plugin_count: 1,
      plugins: [
        {
          plugin_name: 'ah-x',
          domain: 'x',
          description: 'X.',
          commands: [
            { name: 'x.y', summary: 'Y.', usage: 'ah x y', examples: [{ description: 'd', argv: ['ah', 'x', 'y', "it's here"] }] },
          ],
          notes: [],
        },
      ],
    });
    expect(text).toContain("e.g. ah x y 'it'\\''s here'   # d");
    expect(text).not.toContain('Global options:');
  });
});
