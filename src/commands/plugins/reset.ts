import { defineCommand } from '../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { DOMAIN_INPUT, knownDomain, MUTATION_COMMAND, mutate, mutationOutput } from './shared.js';

const input = RootObject(
  {
    domain: Type.Optional(DOMAIN_INPUT),
    all: Type.Optional(Type.Literal(true, { description: 'Reset every domain to enabled' })),
  },
  { description: 'Exactly one of domain or all=true is required.' },
);

export const reset = defineCommand({
  ...MUTATION_COMMAND,
  id: 'plugins.reset',
  title: 'Reset domain state',
  description: 'Return one domain (or all, with all=true) to its default enabled state.',
  inputSchema: input,
  outputSchema: mutationOutput('plugins.reset'),
  examples: [
    { description: 'Reset everything', arguments: { all: true } },
    { description: 'Reset one domain', arguments: { domain: 'git' } },
  ],
  async run(args: Static<typeof input>, ctx) {
    if ((args.domain === undefined) === (args.all === undefined)) {
      throw new AhError({ code: 'INVALID_ARGUMENT', message: 'pass exactly one of a domain or --all', domain: 'plugins' });
    }
    if (args.all) return mutate('plugins.reset', ctx, null, () => []);
    const domain = knownDomain(ctx.host.catalog(), args.domain as string, 'enable');
    return mutate('plugins.reset', ctx, domain, (current) => current.filter((d) => d !== domain));
  },
});
