/**
 * The descriptor shape of every one-off request command. `request` takes a method; get, post,
 * put, patch and delete fix it; all of them run the same transport (perform.ts, loaded on use).
 */
import type { CommandDescriptor, CredentialSlot, Example } from '../../../catalog/descriptor.js';
import type { Effects } from '../../../catalog/effects.js';
import type { TProperties } from '@sinclair/typebox';
import { RootObject, Type } from '../../../catalog/schema.js';
import { BODY_INPUTS, CLI_ALIASES, EXPECT_INPUTS, METHODS, transportInputs, URL_FIELD } from './inputs.js';
import { isRelativePath } from './read-input-file.js';
import { renderResponse, type ResponseOutput, responseOutput } from './output.js';
import type { OneOffInput } from './plan.js';

export const BASIC_SLOT: CredentialSlot = {
  name: 'basic',
  acceptedKinds: ['http-basic'],
  required: false,
  description: 'HTTP Basic username and password sent as the Authorization header.',
};

/** Relative body files depend on the working directory; everything else is stateless. */
export function statelessUnlessRelativeFile(input: Record<string, unknown>): boolean {
  return !isRelativePath(input.json_file) && !isRelativePath(input.body_file);
}

export interface OneOffOptions {
  id: string;
  title: string;
  description: string;
  /** Fixed method; undefined means the caller passes `method`. */
  method?: string;
  effects: Effects;
  basicSlot: boolean;
  /** GET carries no body: without body fields its `--json` stays the global output switch. */
  bodies: boolean;
  examples: readonly Example[];
}

export function oneOffCommand(options: OneOffOptions): CommandDescriptor<OneOffInput, ResponseOutput> {
  const methodField: TProperties =
    options.method === undefined
      ? {
          method: Type.Union(
            METHODS.map((m) => Type.Literal(m)),
            { description: 'HTTP method' },
          ),
        }
      : {};
  const inputSchema = RootObject({
    ...methodField,
    url: URL_FIELD,
    ...transportInputs(true),
    ...(options.bodies ? BODY_INPUTS : {}),
    ...EXPECT_INPUTS,
  });
  return {
    id: options.id,
    title: options.title,
    description: options.description,
    inputSchema,
    outputSchema: responseOutput(options.id),
    effects: options.effects,
    examples: options.examples,
    ...(options.basicSlot ? { credentialSlots: [BASIC_SLOT] } : {}),
    cli: { positionals: ['url'], aliases: CLI_ALIASES },
    stateless: statelessUnlessRelativeFile,
    render: renderResponse,
    async run(input, ctx) {
      const { performRequest } = await import('./perform.js');
      return performRequest(options.id, options.method ?? (input.method as string), input, ctx);
    },
  };
}
