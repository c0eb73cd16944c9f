import { describe, expect, it } from 'vitest';
import { Gate, testDomain } from '../../../test/helpers/runtime.js';
import type { CommandDescriptor } from '../../catalog/descriptor.js';
import { cliOnly, RootObject, Type } from '../../catalog/schema.js';
import { descriptorTool } from './tool-definition.js';

const gated = testDomain(new Gate()).commands[0] as CommandDescriptor;

describe('published tool schemas', () => {
  it('name no $schema in ah schemas (2020-12 is the default) and keep a declared one as it is', () => {
    const tool = descriptorTool(gated);
    expect(tool.inputSchema.$schema).toBeUndefined();
    expect(tool.outputSchema.$schema).toBeUndefined();
    expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false, properties: { tag: { type: 'string' } } });
    expect(tool.outputSchema).toMatchObject({ type: 'object', required: ['command', 'tag'] });
    // An external plugin's declaration is its own (the MCP conformance suite checks it is kept).
    for (const dialect of ['https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft-07/schema#']) {
      const declared = {
        ...gated,
        inputSchema: { ...(gated.inputSchema as object), $schema: dialect },
        outputSchema: { ...(gated.outputSchema as object), $schema: dialect },
      } as unknown as CommandDescriptor;
      expect(descriptorTool(declared).inputSchema.$schema).toBe(dialect);
      expect(descriptorTool(declared).outputSchema.$schema).toBe(dialect);
    }
  });

  it('leave CLI-only options out of the published input schema', () => {
    const withToken = {
      ...gated,
      inputSchema: RootObject({ tag: Type.String(), token: Type.Optional(Type.String(cliOnly('Use credentials.token.'))) }),
    } as unknown as CommandDescriptor;
    expect(Object.keys(descriptorTool(withToken).inputSchema.properties as object)).toEqual(['tag', 'context']);
  });

  it('publish credential slots as a closed ids-only object, described once in the tool text', () => {
    const withSlot = {
      ...gated,
      credentialSlots: [{ name: 'token', description: 'A token.', acceptedKinds: ['github-token'], required: true }],
    } as unknown as CommandDescriptor;
    const tool = descriptorTool(withSlot);
    const credentials = (tool.inputSchema.properties as Record<string, unknown>).credentials;
    expect(credentials).toEqual({
      type: 'object',
      properties: { token: { type: 'string', minLength: 1 } },
      required: ['token'],
      additionalProperties: false,
    });
    expect(tool.inputSchema.required).toEqual(['credentials']);
    expect(tool.description).toContain('- token (required; kinds: github-token): A token.');
  });
});
