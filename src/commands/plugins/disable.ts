import { defineCommand } from '../../catalog/descriptor.js';
import { RootObject, type Static } from '../../catalog/schema.js';
import { DOMAIN_INPUT, knownDomain, MUTATION_EFFECTS, mutate, mutationOutput, renderMutation } from './shared.js';

const input = RootObject({ domain: DOMAIN_INPUT });

export const disable = defineCommand({
  id: 'plugins.disable',
  title: 'Disable a domain',
  description: 'Disable a domain: its commands stop working in the CLI and disappear from MCP tool lists. Host domains cannot be disabled.',
  inputSchema: input,
  outputSchema: mutationOutput('plugins.disable'),
  effects: MUTATION_EFFECTS,
  examples: [{ description: 'Disable run', arguments: { domain: 'run' } }],
  cli: { positionals: ['domain'] },
  stateless: true,
  render: renderMutation,
  async run(args: Static<typeof input>, ctx) {
    const domain = knownDomain(ctx.host.catalog(), args.domain, 'disable');
    return mutate('plugins.disable', ctx, domain, (current) => [...current, domain]);
  },
});
