import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeHost } from '../../../test/fixtures/plugins/fake-host.js';
import { sampleModules } from '../../../test/fixtures/plugins/sample-catalog.js';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { list } from './list.js';

async function setup(disabled: string[] = []) {
  const dir = tempDir();
  const host = await fakeHost(sampleModules(), join(dir, 'plugins.json'));
  if (disabled.length > 0) await host.setDisabledDomains(() => disabled);
  return testContext({ cwd: dir, host });
}

describe('plugins.list', () => {
  it('lists every domain sorted, with source, state and MCP exposure', async () => {
    const ctx = await setup(['git']);
    const out = await list.run({}, ctx);
    expect(out.command).toBe('plugins.list');
    expect(out.plugins.map((p) => [p.domain, p.source, p.state, p.mcp_exposed])).toEqual([
      ['ai', 'builtin', 'enabled', true],
      ['file', 'builtin', 'enabled', true],
      ['git', 'builtin', 'disabled', true],
      ['mcp', 'builtin', 'enabled', false],
      ['plugins', 'builtin', 'enabled', true],
      ['testkit', 'external', 'enabled', true],
    ]);
    expect(out.plugins.find((p) => p.domain === 'git')).toEqual({
      plugin_name: 'ah-git',
      domain: 'git',
      description: 'The git domain.',
      abi_version: 1,
      required_tools: [{ name: 'git', check_args: ['--version'], reason: 'runs git' }],
      source: 'builtin',
      state: 'disabled',
      mcp_exposed: true,
    });
    const mcp = out.plugins.find((p) => p.domain === 'mcp');
    expect(mcp?.mcp_omission_reason).toMatch(/no typed commands/);
    expect(out.plugins.filter((p) => p.mcp_omission_reason !== undefined).map((p) => p.domain)).toEqual(['mcp']);
  });

  it('filters by state', async () => {
    const ctx = await setup(['git', 'file']);
    expect((await list.run({ state: 'disabled' }, ctx)).plugins.map((p) => p.domain)).toEqual(['file', 'git']);
    expect((await list.run({ state: 'enabled' }, ctx)).plugins.map((p) => p.domain)).toEqual(['ai', 'mcp', 'plugins', 'testkit']);
  });

  it('renders aligned columns', async () => {
    const ctx = await setup(['git']);
    const lines = list.render?.(await list.run({}, ctx)).split('\n') ?? [];
    expect(lines[0]).toBe('DOMAIN   PLUGIN      SOURCE    STATE     DESCRIPTION');
    expect(lines).toContain('git      ah-git      builtin   disabled  The git domain.');
    expect(lines).toContain('testkit  ah-testkit  external  enabled   The testkit domain.');
    expect(lines).toHaveLength(7);
  });
});
