import { type CatalogView, defineCommand, domainOf } from '../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { GLOBAL_OPTIONS } from '../../catalog/global-options.js';
import { AhError } from '../../errors.js';
import { suggest } from '../../platform/suggest.js';
import { shellQuote } from '../../platform/text.js';
import { argvForExample, usageFor } from '../../catalog/usage.js';
import { readsConfiguration } from '../plugins/shared.js';

const input = RootObject({ domain: Type.Optional(Type.String({ minLength: 1, description: 'Only this domain' })) });
const EXAMPLE_ARGV = Closed({ description: Type.String(), argv: Type.Array(Type.String()) });
const output = RootObject({
  command: Type.Literal('ai.info'),
  domain_filter: Nullable(Type.String()),
  global_options: Type.Array(Closed({ flag: Type.String(), description: Type.String() })),
  host_commands: Type.Array(
    Closed({
      name: Type.String(),
      summary: Type.String(),
      usage: Type.String(),
      examples: Type.Array(Closed({ description: Type.String(), command: Type.String() })),
    }),
  ),
  plugin_count: Type.Integer({ minimum: 0 }),
  plugins: Type.Array(
    Closed({
      plugin_name: Type.String(),
      domain: Type.String(),
      description: Type.String(),
      commands: Type.Array(
        Closed({ name: Type.String(), summary: Type.String(), usage: Type.String(), examples: Type.Array(EXAMPLE_ARGV) }),
      ),
      notes: Type.Array(Type.String()),
    }),
  ),
});
type Output = Static<typeof output>;

const HOST_COMMANDS = [
  {
    name: 'mcp serve',
    summary: 'Serve every enabled command as an MCP tool over stdio or local Streamable HTTP.',
    usage: 'ah [--cwd PATH] [--limit N] mcp serve [--transport stdio|http] [--port PORT] [--max-active N] [--default-timeout-ms MS]',
    examples: [
      { description: 'stdio server for an agent that starts ah itself', command: 'ah --cwd . mcp serve' },
      { description: 'shared local HTTP server', command: 'ah mcp serve --transport http --port 8787' },
    ],
  },
  {
    name: 'mcp service',
    summary: 'Register the local HTTP server as a per-user service (systemd user unit / Task Scheduler) and manage it.',
    usage:
      'ah [--cwd PATH] [--limit N] mcp service install|start|stop|restart|status|uninstall [--port PORT] [--max-active N] [--default-timeout-ms MS] [--no-start]',
    examples: [
      { description: 'install and wait for readiness', command: 'ah mcp service install' },
      { description: 'every layer of the service, never repairs', command: 'ah mcp service status --json' },
    ],
  },
  {
    name: 'secrets',
    summary: 'Manage the encrypted vault; values only through hidden prompts or the protected browser form (--open).',
    usage: 'ah secrets init | add <id> --kind K [--label T] [--description T] [--open] | edit <id> [--open] | remove <id>',
    examples: [
      { description: 'create the vault', command: 'ah secrets init' },
      { description: 'add a token through the browser form', command: 'ah secrets add gh-main --kind github-token --open' },
    ],
  },
  {
    name: 'ai install',
    summary:
      'Connect an agent (claude, codex, gemini, cursor, copilot, copilot-cli, opencode, all) to ah: MCP registration plus a rules block; uninstall and status undo and inspect it.',
    usage:
      'ah ai install <target> [--scope local|project|user] [--transport stdio|http|managed] [--url URL] [--mcp-only|--rules-only] [-y] [--dry-run] | ah ai uninstall <target> [--scope S] [--dry-run] | ah ai status [target]',
    examples: [
      { description: 'connect Claude Code in this project', command: 'ah ai install claude --yes' },
      { description: 'show what connecting every agent found here would change', command: 'ah ai install all --dry-run' },
      { description: 'which agents are connected, per scope', command: 'ah ai status --json' },
    ],
  },
];

/** A filter must name a known, enabled domain: an empty manual would only confuse the caller. */
function checkFilter(catalog: CatalogView, domain: string): void {
  if (!catalog.domains.some((d) => d.domain === domain)) {
    const known = catalog.domains.map((d) => d.domain);
    const guess = suggest(domain, known);
    throw new AhError({
      code: 'DOMAIN_NOT_FOUND',
      message: `unknown domain '${domain}'`,
      hint: guess ? `Did you mean '${guess}'?` : 'Call ai.info without a domain to see every domain.',
    });
  }
  if (!catalog.isEnabled(domain)) {
    throw new AhError({
      code: 'DOMAIN_DISABLED',
      message: `the '${domain}' domain is disabled`,
      hint: `Run 'ah plugins enable ${domain}' to enable it.`,
    });
  }
}

function summary(description: string): string {
  return (description.match(/^.*?[.!?](\s|$)/)?.[0] ?? description).trim();
}

export const info = defineCommand({
  id: 'ai.info',
  title: 'Manual for agents',
  description: 'Describe every enabled domain and command (usage, summary, examples) plus the global options: a manual for AI agents.',
  inputSchema: input,
  outputSchema: output,
  effects: readsConfiguration('Reads the command catalog; changes nothing.'),
  examples: [
    { description: 'The whole manual', arguments: {} },
    { description: 'Only the file domain', arguments: { domain: 'file' } },
  ],
  stateless: true,
  render: (o: Output) => {
    const lines: string[] = [];
    if (o.domain_filter === null) {
      lines.push('Global options:', ...o.global_options.map((g) => `  ${g.flag.padEnd(16)} ${g.description}`), '');
    }
    const hostLines = (h: Output['host_commands'][number], suffix: string) => [
      `  ${h.usage}`,
      `    ${h.summary}${suffix}`,
      ...h.examples.map((e) => `    e.g. ${e.command}   # ${e.description}`),
    ];
    // The whole manual lists host commands first; a one-domain manual is that domain's section only.
    if (o.domain_filter === null && o.host_commands.length > 0) {
      lines.push('Host commands (CLI only):', ...o.host_commands.flatMap((h) => hostLines(h, '')), '');
    }
    for (const p of o.plugins) {
      lines.push(`## ${p.domain} — ${p.description}`);
      for (const c of p.commands) {
        lines.push(`  ${c.usage}`, `    ${c.summary}`);
        for (const e of c.examples) lines.push(`    e.g. ${e.argv.map(shellQuote).join(' ')}   # ${e.description}`);
      }
      if (o.domain_filter !== null) lines.push(...o.host_commands.flatMap((h) => hostLines(h, ' (CLI only)')));
      for (const note of p.notes) lines.push(`  note: ${note}`);
      lines.push('');
    }
    return lines.join('\n').trimEnd();
  },
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const catalog = ctx.host.catalog();
    const filter = args.domain?.trim().toLowerCase();
    if (filter !== undefined) checkFilter(catalog, filter);
    const selected = catalog.domains
      .filter((d) => catalog.isEnabled(d.domain) && (filter === undefined || d.domain === filter))
      .sort((a, b) => a.domain.localeCompare(b.domain));
    const plugins = selected.map((d) => ({
      plugin_name: d.pluginName,
      domain: d.domain,
      description: d.description,
      commands: catalog.all
        .filter((c) => domainOf(c.id) === d.domain)
        .sort((a, b) => a.id.localeCompare(b.id))
        .map((c) => ({
          name: c.id,
          summary: summary(c.description),
          usage: usageFor(c),
          examples: c.examples.map((e) => ({ description: e.description, argv: argvForExample(c, e.arguments) })),
        })),
      notes: [...d.notes],
    }));
    return {
      command: 'ai.info',
      domain_filter: filter ?? null,
      global_options: GLOBAL_OPTIONS.map((o) => ({ ...o })),
      host_commands: HOST_COMMANDS.filter((h) => filter === undefined || h.name.split(' ')[0] === filter),
      plugin_count: plugins.length,
      plugins,
    };
  },
});
