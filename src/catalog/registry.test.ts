import { describe, expect, it } from 'vitest';
import { type CommandDescriptor, defineCommand, type DomainModule } from './descriptor.js';
import { CatalogSnapshot, defineCatalog, descriptorProblems } from './registry.js';
import { cliOnly, RootObject, type TSchema, Type } from './schema.js';

function command(overrides: Partial<CommandDescriptor> = {}): CommandDescriptor {
  return defineCommand({
    id: 'demo.echo',
    title: 'Echo',
    description: 'Echo the input.',
    inputSchema: RootObject({ text: Type.String() }),
    outputSchema: RootObject({ command: Type.Literal('demo.echo'), text: Type.String() }),
    effects: {
      readOnly: true,
      destructive: false,
      idempotent: true,
      openWorld: false,
      effects: [],
      risk: 'low',
      impact: 'Changes nothing.',
      reversibility: 'yes',
    },
    examples: [{ description: 'Echo hi', arguments: { text: 'hi' } }],
    run: async (input: { text: string }) => ({ command: 'demo.echo', text: input.text }),
    ...overrides,
  });
}

function domain(...commands: CommandDescriptor[]): DomainModule {
  return { domain: 'demo', pluginName: 'ah-demo', description: 'Demo', commands };
}

function rejects(module: DomainModule): void {
  expect(() => defineCatalog([module])).toThrowError(expect.objectContaining({ code: 'COMMAND_CATALOG_INVALID' }));
}

describe('defineCatalog', () => {
  it('leaves descriptor checks of loader-checked modules to the loader, never the catalog-wide ones', () => {
    const untitled = command({ title: '' });
    rejects(domain(untitled));
    // The plugin loader has already run descriptorProblems on such a module.
    expect(defineCatalog([domain(untitled)], { checked: () => true }).byId.has('demo.echo')).toBe(true);
    const twice = { ...domain(command()), domain: 'demo' };
    expect(() => defineCatalog([domain(command()), twice], { checked: () => true })).toThrowError(
      expect.objectContaining({ code: 'COMMAND_CATALOG_INVALID' }),
    );
    expect(() => defineCatalog([domain(command({ id: 'other.echo' }))], { checked: () => true })).toThrowError(
      expect.objectContaining({ code: 'COMMAND_CATALOG_INVALID' }),
    );
  });

  it('accepts a valid descriptor', () => {
    expect(defineCatalog([domain(command())]).byId.get('demo.echo')?.title).toBe('Echo');
  });

  it('rejects duplicate ids and bad names', () => {
    rejects(domain(command(), command()));
    rejects(domain(command({ id: 'demo.Echo' })));
    rejects(domain(command({ id: 'demo' })));
    rejects(domain(command({ id: 'other.echo' })));
  });

  it('rejects open or non-object root schemas', () => {
    rejects(domain(command({ inputSchema: { type: 'object', properties: {} } })));
    rejects(domain(command({ inputSchema: { type: 'string' } })));
    rejects(domain(command({ outputSchema: { type: 'object', additionalProperties: false, anyOf: [] } })));
  });

  it('judges schemas by their JSON text: undefined members are absent, with or without the example check', () => {
    const text = RootObject({ text: Type.String() });
    const quiet = command({ inputSchema: { ...text, description: undefined, anyOf: undefined } });
    expect(() => defineCatalog([domain(quiet)])).not.toThrow();
    expect(descriptorProblems(quiet, { verifyExamples: false })).toEqual([]);
    const loud = command({ inputSchema: { ...text, anyOf: [] }, examples: [] });
    expect(descriptorProblems(loud, { verifyExamples: false })).toEqual([`inputSchema root keyword 'anyOf' is not allowed`]);
    const unset = RootObject({ text: Type.String(), context: Type.String() });
    (unset.properties as Record<string, unknown>).context = undefined;
    expect(descriptorProblems(command({ inputSchema: unset }), { verifyExamples: false })).toEqual([]);
  });

  it('rejects reserved property names', () => {
    rejects(domain(command({ inputSchema: RootObject({ context: Type.String() }), examples: [] })));
    rejects(domain(command({ inputSchema: RootObject({ credentials: Type.String() }), examples: [] })));
  });

  it('takes a CLI-only property only when it is optional, has no default and names its MCP hint', () => {
    const withToken = (token: TSchema) => domain(command({ inputSchema: RootObject({ text: Type.String(), token }) }));
    expect(() => defineCatalog([withToken(Type.Optional(Type.String(cliOnly('Use credentials.token.'))))])).not.toThrow();
    rejects(withToken(Type.String(cliOnly('Use credentials.token.'))));
    rejects(withToken(Type.Optional(Type.String({ default: 'x', ...cliOnly('Use credentials.token.') }))));
    rejects(withToken(Type.Optional(Type.String(cliOnly(' ')))));
    rejects(withToken(Type.Optional(Type.String({ 'x-cli-only': true }))));
  });

  it('checks credential slots: names, duplicates, known kinds, descriptions', () => {
    const slot = { name: 'token', acceptedKinds: ['github-token'], required: true, description: 'A token.' };
    expect(defineCatalog([domain(command({ credentialSlots: [slot] }))]).byId.get('demo.echo')?.credentialSlots).toHaveLength(1);
    rejects(domain(command({ credentialSlots: [{ ...slot, name: 'Token' }] })));
    rejects(domain(command({ credentialSlots: [slot, slot] })));
    rejects(domain(command({ credentialSlots: [{ ...slot, acceptedKinds: [] }] })));
    rejects(domain(command({ credentialSlots: [{ ...slot, acceptedKinds: ['aws-key'] }] })));
    rejects(domain(command({ credentialSlots: [{ ...slot, description: ' ' }] })));
  });

  it('rejects incomplete effects', () => {
    const effects = { ...command().effects, impact: '' };
    rejects(domain(command({ effects })));
    rejects(domain(command({ effects: { ...command().effects, risk: 'extreme' as 'low' } })));
    rejects(domain(command({ effects: { ...command().effects, effects: ['teleport' as 'filesystem_read'] } })));
  });

  it('rejects schemas that break the 2020-12 meta-schema', () => {
    rejects(
      domain(
        command({ inputSchema: { type: 'object', properties: { a: { type: 'strnig' } }, additionalProperties: false }, examples: [] }),
      ),
    );
  });

  it('rejects examples that do not validate', () => {
    rejects(domain(command({ examples: [{ description: 'bad', arguments: { text: 3 } }] })));
    rejects(domain(command({ examples: [{ description: 'extra', arguments: { text: 'a', nope: 1 } }] })));
  });

  it('snapshots are immutable and enabling swaps in a new revision', () => {
    const snapshot = new CatalogSnapshot(defineCatalog([domain(command())]), [], 1);
    expect(Object.isFrozen(snapshot)).toBe(true);
    const next = snapshot.withDisabled(['demo']);
    expect(next.revision).toBe(2);
    expect(next.isEnabled('demo')).toBe(false);
    expect(snapshot.isEnabled('demo')).toBe(true);
    expect(next.enabled()).toEqual([]);
  });

  it('never disables host domains', () => {
    const snapshot = new CatalogSnapshot(defineCatalog([domain(command())]), ['plugins', 'demo'], 1);
    expect(snapshot.disabledDomains).toEqual(['demo']);
  });
});

describe('MCP publication hints', () => {
  it('accepts an exact tool name and a content builder', () => {
    const d = command({ mcp: { name: 'echo_text', content: () => [{ type: 'text', text: 'hi' }] } });
    expect(defineCatalog([domain(d)]).byId.get('demo.echo')?.mcp?.name).toBe('echo_text');
  });

  it('refuses bad, reserved and duplicate tool names and unknown hints', () => {
    rejects(domain(command({ mcp: { name: 'has space' } })));
    rejects(domain(command({ mcp: { name: 'ah.other' } })));
    rejects(domain(command({ mcp: { name: 'x'.repeat(129) } })));
    rejects(domain(command({ mcp: { content: 'text' as never } })));
    rejects(domain(command({ mcp: { title: 'x' } as never })));
    rejects(domain(command({ mcp: { name: 'same' } }), command({ id: 'demo.other', mcp: { name: 'same' } })));
  });
});

describe('contentProblem', () => {
  it('accepts every MCP content block kind and names the first bad block', async () => {
    const { contentProblem } = await import('./tool-content.js');
    expect(
      contentProblem([
        { type: 'text', text: 't' },
        { type: 'image', data: 'AA==', mimeType: 'image/png' },
        { type: 'audio', data: 'AA==', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'x://y', text: 't' } },
        { type: 'resource_link', uri: 'x://y', name: 'y' },
      ]),
    ).toBeUndefined();
    expect(contentProblem([])).toMatch(/non-empty/);
    expect(
      contentProblem([
        { type: 'text', text: 't' },
        { type: 'image', data: 'AA==' },
      ]),
    ).toMatch(/block 1/);
  });
});
