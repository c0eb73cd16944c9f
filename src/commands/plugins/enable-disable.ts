/** plugins.enable and plugins.disable: take one domain out of the stored disabled list, or add it. */
import { defineCommand } from '../../catalog/descriptor.js';
import { RootObject, type Static } from '../../catalog/schema.js';
import { DOMAIN_INPUT, knownDomain, MUTATION_COMMAND, mutate, mutationOutput } from './shared.js';

const input = RootObject({ domain: DOMAIN_INPUT });
export const enable = defineCommand({
  ...MUTATION_COMMAND,
  inputSchema: input,
  id: 'plugins.enable',
  title: 'Enable a domain',
  description: 'Enable a disabled domain for CLI and MCP (persisted in plugins.json; live MCP servers update their tool list).',
  outputSchema: mutationOutput('plugins.enable'),
  examples: [{ description: 'Enable git again', arguments: { domain: 'git' } }],
  async run(args: Static<typeof input>, ctx) {
    const domain = knownDomain(ctx.host.catalog(), args.domain, 'enable');
    return mutate('plugins.enable', ctx, domain, (current) => current.filter((d) => d !== domain));
  },
});

export const disable = defineCommand({
  ...MUTATION_COMMAND,
  inputSchema: input,
  id: 'plugins.disable',
  title: 'Disable a domain',
  description: 'Disable a domain: its commands stop working in the CLI and disappear from MCP tool lists. Host domains cannot be disabled.',
  outputSchema: mutationOutput('plugins.disable'),
  examples: [{ description: 'Disable run', arguments: { domain: 'run' } }],
  async run(args: Static<typeof input>, ctx) {
    const domain = knownDomain(ctx.host.catalog(), args.domain, 'disable');
    return mutate('plugins.disable', ctx, domain, (current) => [...current, domain]);
  },
});
