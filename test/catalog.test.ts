// Every shipped descriptor: valid names, closed schemas, complete effects, valid examples.
import { describe, expect, it } from 'vitest';
import { domainOf } from '../src/catalog/descriptor.js';
import { defineCatalog, descriptorProblems } from '../src/catalog/registry.js';
import { cliOnlyFields, toJsonSchema } from '../src/catalog/schema.js';
import { validateArguments } from '../src/runtime/invoke.js';
import { descriptorTool } from '../src/surfaces/mcp/tool-definition.js';
import type { DomainModule } from '../src/catalog/descriptor.js';
import { BUILTIN_DOMAINS } from '../src/commands/index.js';
import { bundledDomainObjects } from '../src/plugins/bundled/index.js';
import { loadBundledPlugins } from '../src/plugins/loader.js';
import { BUNDLED_PLUGINS } from '../src/plugins/bundled/index.js';

// Bundled plugins ship with ah, so their descriptors are held to the same bar as built-ins.
const SHIPPED: readonly DomainModule[] = [...BUILTIN_DOMAINS, ...(bundledDomainObjects() as DomainModule[])];
const all = SHIPPED.flatMap((m) => m.commands);

describe('built-in catalog', () => {
  it('defines without problems, examples included', () => {
    expect(() => defineCatalog(SHIPPED)).not.toThrow();
  });

  it('loads every bundled plugin through the plugin contract without a warning', () => {
    const { modules, warnings } = loadBundledPlugins(BUNDLED_PLUGINS);
    expect(warnings).toEqual([]);
    expect(modules.map((m) => m.source)).toEqual(BUNDLED_PLUGINS.map(() => 'bundled'));
  });

  it('publishes no inline token, password or bearer over MCP, and the CLI keeps them', () => {
    const published: string[] = [];
    const cliOnly: string[] = [];
    for (const d of all) {
      const names = Object.keys(descriptorTool(d).inputSchema.properties as object);
      for (const name of ['token', 'password_env', 'bearer', 'basic']) if (names.includes(name)) published.push(`${d.id}.${name}`);
      for (const name of cliOnlyFields(d.inputSchema).keys()) cliOnly.push(name);
    }
    expect(published).toEqual([]);
    // 37 forge commands (token), 16 postgres commands (password_env), 7 http requests (bearer, basic).
    expect(new Set(cliOnly)).toEqual(new Set(['token', 'password_env', 'bearer', 'basic']));
    expect(cliOnly.length).toBe(37 + 16 + 7 * 2);
  });

  it('refuses every CLI-only option over MCP before its handler, with the hint, and takes it from the CLI', () => {
    // A value each option's own schema accepts (basic is 'user:password').
    const VALUES: Record<string, string> = { token: 't', password_env: 'PG_PASSWORD', bearer: 't', basic: 'u:p' };
    let checked = 0;
    for (const d of all) {
      for (const [name, hint] of cliOnlyFields(d.inputSchema)) {
        const args = { ...(d.examples[0]?.arguments ?? {}), [name]: VALUES[name] };
        expect(() => validateArguments(d, args, 'mcp'), `${d.id} ${name}`).toThrowError(
          expect.objectContaining({
            code: 'INVALID_ARGUMENT',
            hint,
            message: expect.stringContaining(`'${name}' is accepted from the CLI only`),
          }),
        );
        expect(validateArguments(d, args, 'cli')[name], `${d.id} ${name}`).toBe(VALUES[name]);
        checked += 1;
      }
    }
    expect(checked).toBe(37 + 16 + 7 * 2);
  });

  it('publishes no job.* and no mcp.serve command', () => {
    expect(all.filter((d) => domainOf(d.id) === 'job' || d.id === 'mcp.serve')).toEqual([]);
  });

  it.each(all.map((d) => [d.id, d] as const))('%s is complete', (_id, d) => {
    expect(descriptorProblems(d)).toEqual([]);
    const output = toJsonSchema(d.outputSchema);
    const props = output.properties as Record<string, { const?: unknown }>;
    // Every structured result names its command first, except where the contract fixes the shape
    // (secrets.list returns exactly {secrets}).
    if (d.id !== 'secrets.list') expect(Object.keys(props)[0]).toBe('command');
    expect(d.examples.length).toBeGreaterThan(0);
    for (const name of [...(d.cli?.positionals ?? []), ...(d.cli?.rest ? [d.cli.rest] : [])]) {
      expect(Object.keys((toJsonSchema(d.inputSchema).properties ?? {}) as object)).toContain(name);
    }
    expect(d.title.length).toBeLessThan(60);
  });
});
