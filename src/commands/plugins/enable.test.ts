import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeHost } from '../../../test/fixtures/plugins/fake-host.js';
import { sampleModules } from '../../../test/fixtures/plugins/sample-catalog.js';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { enable } from './enable-disable.js';

async function setup(disabled: string[]) {
  const dir = tempDir();
  const path = join(dir, 'plugins.json');
  writeFileSync(path, JSON.stringify({ version: 1, disabled_domains: disabled }));
  const host = await fakeHost(sampleModules(), path);
  return { host, path, ctx: testContext({ cwd: dir, host }) };
}

describe('plugins.enable', () => {
  it('removes the domain from the stored list and enables it live', async () => {
    const { host, path, ctx } = await setup(['file', 'git']);
    expect(host.snapshot().isEnabled('git')).toBe(false);
    expect(await enable.run({ domain: 'Git' }, ctx)).toEqual({
      command: 'plugins.enable',
      domain: 'git',
      changed: true,
      config_path: path,
      disabled_domains: ['file'],
    });
    expect(host.snapshot().isEnabled('git')).toBe(true);
  });

  it('reports no change for an enabled domain, host domains included', async () => {
    const { ctx } = await setup([]);
    expect(await enable.run({ domain: 'git' }, ctx)).toMatchObject({ changed: false, disabled_domains: [] });
    expect(await enable.run({ domain: 'plugins' }, ctx)).toMatchObject({ domain: 'plugins', changed: false });
  });

  it('clears a stored domain that no longer exists (a removed plugin)', async () => {
    const { ctx } = await setup(['gone', 'git']);
    expect(await enable.run({ domain: 'gone' }, ctx)).toMatchObject({ domain: 'gone', changed: true, disabled_domains: ['git'] });
    await expect(enable.run({ domain: 'gone' }, ctx)).rejects.toMatchObject({ code: 'DOMAIN_NOT_FOUND' });
  });

  it('refuses an unknown domain with a suggestion', async () => {
    const { ctx } = await setup([]);
    await expect(enable.run({ domain: 'gti' }, ctx)).rejects.toMatchObject({ code: 'DOMAIN_NOT_FOUND', hint: "Did you mean 'git'?" });
  });
});
