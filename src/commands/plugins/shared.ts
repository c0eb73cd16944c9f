/** Shared pieces of the plugins commands: the mutation output and domain checks. */
import type { CatalogView, CommandContext } from '../../catalog/descriptor.js';
import type { Effects } from '../../catalog/effects.js';
import { Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { suggest } from '../../platform/suggest.js';

export function mutationOutput<C extends string>(command: C) {
  return RootObject({
    command: Type.Literal(command),
    domain: Nullable(Type.String()),
    changed: Type.Boolean(),
    config_path: Type.String(),
    disabled_domains: Type.Array(Type.String()),
  });
}

export type MutationOutput = Static<ReturnType<typeof mutationOutput>>;

/** The effects of a command that only reads configuration (plugin state, the catalog, vault metadata). */
export function readsConfiguration(impact: string): Effects {
  return {
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    effects: ['configuration_read'],
    risk: 'low',
    impact,
    reversibility: 'yes',
  };
}

/** What enable, disable and reset declare alike. */
export const MUTATION_COMMAND = {
  effects: {
    readOnly: false,
    destructive: false,
    idempotent: true,
    openWorld: false,
    effects: ['configuration_write', 'filesystem_write'],
    risk: 'medium',
    impact: 'Changes which domains are enabled for every ah process of this user (CLI and MCP servers).',
    reversibility: 'yes',
  },
  cli: { positionals: ['domain'] },
  stateless: true,
  render: (o: MutationOutput): string => {
    const what = o.changed ? 'updated' : 'unchanged';
    const disabled = o.disabled_domains.length === 0 ? 'none' : o.disabled_domains.join(', ');
    return `${o.command}: ${what} (${o.config_path})\ndisabled domains: ${disabled}`;
  },
} as const;

export const DOMAIN_INPUT = Type.String({ minLength: 1, description: 'Domain name, e.g. git' });

/**
 * Normalises a domain name and checks it exists; host domains may be refused. Enabling accepts a
 * name that is only in the stored disabled list (e.g. a removed plugin) so it can be cleaned up.
 */
export function knownDomain(catalog: CatalogView, raw: string, mode: 'disable' | 'enable'): string {
  const domain = raw.trim().toLowerCase();
  const info = catalog.domains.find((d) => d.domain === domain);
  if (!info && mode === 'enable' && catalog.disabledDomains.includes(domain)) return domain;
  if (!info) {
    const known = catalog.domains.map((d) => d.domain);
    const guess = suggest(domain, known);
    throw new AhError({
      code: 'DOMAIN_NOT_FOUND',
      message: `unknown domain '${raw}'`,
      hint: guess ? `Did you mean '${guess}'?` : "Run 'ah plugins list' to see the domains.",
      domain: 'plugins',
    });
  }
  if (mode === 'disable' && info.host) {
    throw new AhError({ code: 'INVALID_ARGUMENT', message: `'${domain}' is a host domain and cannot be disabled`, domain: 'plugins' });
  }
  return domain;
}

export async function mutate<C extends string>(
  command: C,
  ctx: CommandContext,
  domain: string | null,
  update: (current: readonly string[]) => string[],
): Promise<MutationOutput & { command: C }> {
  const result = await ctx.host.setDisabledDomains(update);
  return { command, domain, changed: result.changed, config_path: ctx.host.pluginSettingsPath, disabled_domains: result.disabled };
}
