import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installTestPlugin } from '../../test/helpers/plugins.js';
import { tempDir } from '../../test/helpers/tmp.js';
import { loadBundledPlugins, loadExternalPlugins } from './loader.js';

/** A valid plugin module's source for `domain`, with one echo command per verb. */
function pluginSource(domain: string, verbs: string[] = ['echo'], extra = ''): string {
  const commands = verbs.map(
    (verb) => `{
      id: '${domain}.${verb}', title: 'T', description: 'D.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      outputSchema: { type: 'object', properties: { command: { const: '${domain}.${verb}' } }, required: ['command'], additionalProperties: false },
      effects: { readOnly: true, destructive: false, idempotent: true, openWorld: false, effects: [], risk: 'low', impact: 'None.', reversibility: 'yes' },
      examples: [{ description: 'e', arguments: { text: 'hi' } }],
      run: async () => ({ command: '${domain}.${verb}' }),
    }`,
  );
  return `export default { domain: '${domain}', pluginName: 'ah-${domain}', description: 'The ${domain} plugin.'${extra}, commands: [${commands.join(',')}] };\n`;
}

function configWith(files: Record<string, string>): string {
  const configDir = tempDir();
  mkdirSync(join(configDir, 'plugins'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(configDir, 'plugins', name), text);
  return configDir;
}

describe('loadExternalPlugins', () => {
  it('returns nothing, quickly, when there is no plugins directory', async () => {
    const started = performance.now();
    expect(await loadExternalPlugins(join(tempDir(), 'missing'))).toEqual({ modules: [], warnings: [] });
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('loads a valid module (default export) and marks it external', async () => {
    const configDir = tempDir();
    installTestPlugin(configDir);
    const { modules, warnings } = await loadExternalPlugins(configDir, ['file']);
    expect(warnings).toEqual([]);
    expect(modules).toHaveLength(1);
    expect(modules[0]).toMatchObject({ domain: 'testkit', pluginName: 'ah-testkit', source: 'external', host: false });
    expect(modules[0]?.commands.map((c) => c.id)).toEqual(['testkit.echo', 'testkit.gate', 'testkit.vault-probe']);
  });

  it('accepts a named `domain` export, .js files, and ignores other files', async () => {
    const configDir = configWith({
      'a.js': pluginSource('alpha').replace('export default', 'export const domain ='),
      'notes.txt': 'not a plugin',
      'b.mjs.bak': 'nor this',
    });
    const { modules, warnings } = await loadExternalPlugins(configDir);
    expect(warnings).toEqual([]);
    expect(modules.map((m) => m.domain)).toEqual(['alpha']);
  });

  it('skips invalid modules with PLUGIN_METADATA_INVALID and keeps the valid ones', async () => {
    const configDir = configWith({
      '1-syntax.mjs': 'export default {',
      '2-throws.mjs': 'throw new Error("boom at import");',
      '3-nothing.mjs': 'export const x = 1;',
      '4-shape.mjs': 'export default { domain: "Bad Name", commands: [] };',
      '5-descriptor.mjs': pluginSource('broken').replace("risk: 'low'", "risk: 'extreme'"),
      '6-foreign-id.mjs': pluginSource('own').replace("id: 'own.echo'", "id: 'other.echo'"),
      '7-dupe.mjs': pluginSource('twice', ['echo', 'echo']),
      '8-no-schema.mjs': pluginSource('bare').replace(/inputSchema: \{.*?\},\n/s, ''),
      '9-null-command.mjs': 'export default { domain: "nul", pluginName: "p", description: "d", commands: [null] };',
      'a-notes.mjs': pluginSource('noted', ['echo'], ', notes: "not a list"'),
      'z-good.mjs': pluginSource('good'),
    });
    const { modules, warnings } = await loadExternalPlugins(configDir);
    expect(modules.map((m) => m.domain)).toEqual(['good']);
    expect(warnings).toHaveLength(10);
    for (const w of warnings) {
      expect(w.code).toBe('PLUGIN_METADATA_INVALID');
      expect(w.cause).not.toBe('');
    }
    expect(warnings.map((w) => w.message.split(':')[0])).toEqual([
      'skipped plugin 1-syntax.mjs',
      'skipped plugin 2-throws.mjs',
      'skipped plugin 3-nothing.mjs',
      'skipped plugin 4-shape.mjs',
      'skipped plugin 5-descriptor.mjs',
      'skipped plugin 6-foreign-id.mjs',
      'skipped plugin 7-dupe.mjs',
      'skipped plugin 8-no-schema.mjs',
      'skipped plugin 9-null-command.mjs',
      'skipped plugin a-notes.mjs',
    ]);
    expect(warnings[1]?.cause).toContain('boom at import');
    expect(warnings[6]?.message).toContain("'twice.echo' is declared twice");
  });

  it('skips modules claiming a reserved host domain', async () => {
    const configDir = configWith(
      Object.fromEntries(['ai', 'plugins', 'mcp', 'secrets', 'upgrade'].map((d) => [`${d}.mjs`, pluginSource(d)])),
    );
    const { modules, warnings } = await loadExternalPlugins(configDir);
    expect(modules).toEqual([]);
    expect(warnings.map((w) => [w.code, w.message])).toEqual(
      ['ai', 'mcp', 'plugins', 'secrets', 'upgrade'].map((d) => [
        'PLUGIN_METADATA_INVALID',
        `skipped plugin ${d}.mjs: '${d}' is a reserved host domain`,
      ]),
    );
  });

  it('overrides a built-in domain with a conflict warning; the last duplicate file wins', async () => {
    const configDir = configWith({
      'a.mjs': pluginSource('file', ['first']),
      'b.mjs': pluginSource('file', ['second']),
    });
    const { modules, warnings } = await loadExternalPlugins(configDir, ['file', 'git']);
    expect(modules).toHaveLength(1);
    expect(modules[0]?.commands.map((c) => c.id)).toEqual(['file.second']);
    expect(warnings).toEqual([
      { code: 'PLUGIN_DOMAIN_CONFLICT', message: "plugin a.mjs replaces the 'file' domain", cause: 'a built-in domain has the same name' },
      {
        code: 'PLUGIN_DOMAIN_CONFLICT',
        message: "plugin b.mjs replaces the 'file' domain",
        cause: 'an earlier plugin file provided the same domain',
      },
    ]);
  });

  it('cannot make itself a host domain, and may publish job.* commands', async () => {
    const configDir = configWith({ 'job.mjs': pluginSource('job', ['list'], ', host: true') });
    const { modules, warnings } = await loadExternalPlugins(configDir);
    expect(warnings).toEqual([]);
    expect(modules[0]).toMatchObject({ domain: 'job', host: false, source: 'external' });
  });
});

/** A bundled plugin as its module would export it, built from the same source as the file tests. */
async function bundledExports(domain: string, extra = ''): Promise<{ default?: unknown }> {
  const configDir = configWith({ [`${domain}.mjs`]: pluginSource(domain, ['echo'], extra) });
  const { modules } = await loadExternalPlugins(configDir);
  const { source: _source, host: _host, ...plain } = modules[0] as unknown as Record<string, unknown>;
  return { default: plain };
}

describe('loadBundledPlugins', () => {
  it('marks a valid module bundled and never a host domain', async () => {
    const { modules, warnings } = loadBundledPlugins([await bundledExports('webby', ', host: true')]);
    expect(warnings).toEqual([]);
    expect(modules).toHaveLength(1);
    expect(modules[0]).toMatchObject({ domain: 'webby', host: false, source: 'bundled' });
  });

  it('runs the same contract checks as external modules', async () => {
    const good = await bundledExports('webby');
    const wrongDomain = { default: { ...(good.default as object), domain: 'other' } };
    const reserved = { default: { ...(good.default as object), domain: 'secrets' } };
    const { modules, warnings } = loadBundledPlugins([{ default: 42 }, wrongDomain, reserved, good]);
    expect(modules.map((m) => m.domain)).toEqual(['webby']);
    expect(warnings.map((w) => w.code)).toEqual(['PLUGIN_METADATA_INVALID', 'PLUGIN_METADATA_INVALID', 'PLUGIN_METADATA_INVALID']);
    expect(warnings[0]?.message).toContain('exports no domain object');
    expect(warnings[1]?.message).toContain("outside the 'other' domain");
    expect(warnings[2]?.message).toContain('reserved host domain');
  });

  it('names a skipped module by the domain its shipped list gives, when given', async () => {
    const good = await bundledExports('webby');
    const { warnings } = loadBundledPlugins([good, { default: 42 }], ['webby', 'broken']);
    expect(warnings.map((w) => w.message)).toEqual([
      "skipped bundled plugin 'broken': the module exports no domain object (default export or `domain`)",
    ]);
    expect(loadBundledPlugins([{ default: 42 }]).warnings[0]?.message).toMatch(/^skipped bundled plugin #1: /);
  });
});
