import { describe, expect, it } from 'vitest';
import { BUILTIN_DOMAINS } from './commands/index.js';
import { BUNDLED_PLUGINS } from './plugins/bundled/index.js';
import { moduleFromExports } from './plugins/contract.js';
import { BUILTIN_LOADERS, BUNDLED_LOADERS, SHIPPED_NAMES, soleDomain } from './shipped-domains.js';

describe('shipped domain loaders', () => {
  it('load exactly the built-in domains, in order, as the modules themselves', async () => {
    expect(BUILTIN_LOADERS.map((l) => l.domain)).toEqual(BUILTIN_DOMAINS.map((m) => m.domain));
    const loaded = await Promise.all(BUILTIN_LOADERS.map((l) => l.load()));
    for (const [i, module] of loaded.entries()) expect(module).toBe(BUILTIN_DOMAINS[i]);
  });

  it('load exactly the bundled plugins, in order, with the domain object each exports', async () => {
    const shipped = BUNDLED_PLUGINS.map((e) => moduleFromExports(e) as { domain: string });
    expect(BUNDLED_LOADERS.map((l) => l.domain)).toEqual(shipped.map((m) => m.domain));
    const loaded = await Promise.all(BUNDLED_LOADERS.map((l) => l.load()));
    for (const [i, exports] of loaded.entries()) expect(moduleFromExports(exports)).toBe(shipped[i]);
  });

  it('name every shipped domain once', () => {
    expect(new Set(SHIPPED_NAMES).size).toBe(SHIPPED_NAMES.length);
    expect(SHIPPED_NAMES).toHaveLength(BUILTIN_DOMAINS.length + BUNDLED_PLUGINS.length);
  });
});

describe('soleDomain', () => {
  it('is the named shipped domain when its commands need no other', () => {
    for (const domain of ['file', 'search', 'git', 'http', 'postgres', 'secrets', 'task']) expect(soleDomain(domain)).toBe(domain);
  });

  it('is null (load everything) for no word, a typo, an external domain and the catalog-wide domains', () => {
    for (const word of [undefined, 'serch', 'my-plugin', 'help', 'ai', 'mcp', 'plugins']) expect(soleDomain(word)).toBeNull();
  });
});
