import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../catalog/schema.js';
import { fakeHost } from '../../../test/fixtures/plugins/fake-host.js';
import { sampleModules } from '../../../test/fixtures/plugins/sample-catalog.js';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { reset } from './reset.js';

async function setup(disabled: string[]) {
  const dir = tempDir();
  const path = join(dir, 'plugins.json');
  writeFileSync(path, JSON.stringify({ version: 1, disabled_domains: disabled }));
  const host = await fakeHost(sampleModules(), path);
  return { host, path, ctx: testContext({ cwd: dir, host }) };
}

describe('plugins.reset', () => {
  it('resets everything with all=true', async () => {
    const { host, path, ctx } = await setup(['file', 'git', 'testkit']);
    expect(await reset.run({ all: true }, ctx)).toEqual({
      command: 'plugins.reset',
      domain: null,
      changed: true,
      config_path: path,
      disabled_domains: [],
    });
    expect(host.snapshot().disabledDomains).toEqual([]);
    expect(await reset.run({ all: true }, ctx)).toMatchObject({ changed: false });
  });

  it('resets one domain', async () => {
    const { ctx } = await setup(['file', 'git']);
    expect(await reset.run({ domain: 'file' }, ctx)).toMatchObject({ domain: 'file', changed: true, disabled_domains: ['git'] });
  });

  it('needs exactly one of domain or all', async () => {
    const { ctx } = await setup(['git']);
    await expect(reset.run({}, ctx)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(reset.run({ domain: 'git', all: true }, ctx)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('accepts only all=true in its schema', () => {
    const validate = compile(reset.inputSchema);
    expect(validate({ all: true })).toBe(true);
    expect(validate({ all: false })).toBe(false);
    expect(validate({ domain: '' })).toBe(false);
  });

  it('refuses an unknown domain', async () => {
    const { ctx } = await setup([]);
    await expect(reset.run({ domain: 'nope' }, ctx)).rejects.toMatchObject({ code: 'DOMAIN_NOT_FOUND' });
  });
});
