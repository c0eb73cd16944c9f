import { defineCommand } from '../../catalog/descriptor.js';
import { RootObject, type Static } from '../../catalog/schema.js';
import { DOMAIN_INPUT, knownDomain, MUTATION_EFFECTS, mutate, mutationOutput, renderMutation } from './shared.js';

const input = RootObject({ domain: DOMAIN_INPUT });

export const enable = defineCommand({
  id: 'plugins.enable',
  title: 'Enable a domain',
  description: 'Enable a disabled domain for CLI and MCP (persisted in plugins.json; live MCP servers update their tool list).',
  inputSchema: input,
  outputSchema: mutationOutput('plugins.enable'),
  effects: MUTATION_EFFECTS,
  examples: [{ description: 'Enable git again', arguments: { domain: 'git' } }],
  cli: { positionals: ['domain'] },
  stateless: true,
  render: renderMutation,
  async run(args: Static<typeof input>, ctx) {
    const domain = knownDomain(ctx.host.catalog(), args.domain, 'enable');
    return mutate('plugins.enable', ctx, domain, (current) => current.filter((d) => d !== domain));
  },
});
