import { describe, expect, it } from 'vitest';
import { Gate, testDomain } from '../../../test/helpers/runtime.js';
import type { CommandDescriptor } from '../../catalog/descriptor.js';
import { descriptorTool } from './tool-definition.js';

const gated = testDomain(new Gate()).commands[0] as CommandDescriptor;

describe('published tool schemas', () => {
  it('leave out $schema when it names 2020-12, the dialect MCP assumes without it', () => {
    // The descriptor's schemas say 2020-12 (RootObject); the published copies say nothing.
    expect((gated.inputSchema as Record<string, unknown>).$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const tool = descriptorTool(gated);
    expect(tool.inputSchema.$schema).toBeUndefined();
    expect(tool.outputSchema.$schema).toBeUndefined();
    expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false, properties: { tag: { type: 'string' } } });
    expect(tool.outputSchema).toMatchObject({ type: 'object', required: ['command', 'tag'] });
  });

  it('keep any other dialect named', () => {
    const draft7 = 'http://json-schema.org/draft-07/schema#';
    const other = {
      ...gated,
      inputSchema: { ...(gated.inputSchema as object), $schema: draft7 },
      outputSchema: { ...(gated.outputSchema as object), $schema: draft7 },
    } as unknown as CommandDescriptor;
    const tool = descriptorTool(other);
    expect(tool.inputSchema.$schema).toBe(draft7);
    expect(tool.outputSchema.$schema).toBe(draft7);
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
