import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeHost } from '../../../test/fixtures/plugins/fake-host.js';
import { sampleModules } from '../../../test/fixtures/plugins/sample-catalog.js';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { disable } from './enable-disable.js';

async function setup() {
  const dir = tempDir();
  const path = join(dir, 'plugins.json');
  const host = await fakeHost(sampleModules(), path);
  return { host, path, ctx: testContext({ cwd: dir, host }) };
}

describe('plugins.disable', () => {
  it('persists the domain, then the live catalog reflects it', async () => {
    const { host, path, ctx } = await setup();
    expect(await disable.run({ domain: 'git' }, ctx)).toEqual({
      command: 'plugins.disable',
      domain: 'git',
      changed: true,
      config_path: path,
      disabled_domains: ['git'],
    });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: 1, disabled_domains: ['git'] });
    expect(host.snapshot().isEnabled('git')).toBe(false);
  });

  it('is idempotent and normalises the name', async () => {
    const { ctx } = await setup();
    await disable.run({ domain: 'git' }, ctx);
    expect(await disable.run({ domain: ' GIT ' }, ctx)).toMatchObject({ domain: 'git', changed: false, disabled_domains: ['git'] });
    expect(await disable.run({ domain: 'testkit' }, ctx)).toMatchObject({ changed: true, disabled_domains: ['git', 'testkit'] });
  });

  it.each(['ai', 'plugins', 'mcp'])('refuses the host domain %s', async (domain) => {
    const { path, ctx } = await setup();
    await expect(disable.run({ domain }, ctx)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/host domain and cannot be disabled/),
    });
    expect(() => readFileSync(path)).toThrow();
  });

  it('refuses an unknown domain with a suggestion', async () => {
    const { ctx } = await setup();
    await expect(disable.run({ domain: 'fiel' }, ctx)).rejects.toMatchObject({ code: 'DOMAIN_NOT_FOUND', hint: "Did you mean 'file'?" });
    await expect(disable.run({ domain: 'zzzzzz' }, ctx)).rejects.toMatchObject({
      code: 'DOMAIN_NOT_FOUND',
      hint: "Run 'ah plugins list' to see the domains.",
    });
  });

  it('leaves the live catalog alone when the settings file is broken', async () => {
    const { host, path, ctx } = await setup();
    writeFileSync(path, '{oops');
    const before = host.snapshot();
    await expect(disable.run({ domain: 'git' }, ctx)).rejects.toMatchObject({ code: 'JSON_DESERIALIZATION_FAILED' });
    expect(host.snapshot()).toBe(before);
  });

  it('renders a short summary', async () => {
    const { ctx } = await setup();
    const text = disable.render?.(await disable.run({ domain: 'git' }, ctx));
    expect(text).toBe(`plugins.disable: updated (${ctx.host.pluginSettingsPath})\ndisabled domains: git`);
  });
});
