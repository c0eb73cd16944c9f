import { alignColumns } from '../../platform/text.js';
import { defineCommand, domainOf } from '../../catalog/descriptor.js';
import { Closed, RootObject, type Static, Type } from '../../catalog/schema.js';
import { readsConfiguration } from './shared.js';

const STATE = Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]);
const input = RootObject({ state: Type.Optional(STATE) });
const output = RootObject({
  command: Type.Literal('plugins.list'),
  plugins: Type.Array(
    Closed({
      plugin_name: Type.String(),
      domain: Type.String(),
      description: Type.String(),
      abi_version: Type.Integer(),
      required_tools: Type.Array(Closed({ name: Type.String(), check_args: Type.Array(Type.String()), reason: Type.String() })),
      source: Type.Union([Type.Literal('builtin'), Type.Literal('bundled'), Type.Literal('external')]),
      state: STATE,
      mcp_exposed: Type.Boolean(),
      mcp_omission_reason: Type.Optional(Type.String()),
    }),
  ),
});
type Output = Static<typeof output>;

export const list = defineCommand({
  id: 'plugins.list',
  title: 'List domains',
  description:
    'List every domain (built-in and external plugin) with its source, state and whether it has commands published as MCP tools (while enabled).',
  inputSchema: input,
  outputSchema: output,
  effects: readsConfiguration('Reads plugin state; changes nothing.'),
  examples: [
    { description: 'All domains', arguments: {} },
    { description: 'Only disabled domains', arguments: { state: 'disabled' } },
  ],
  stateless: true,
  render: (o: Output) => {
    const rows = [
      ['DOMAIN', 'PLUGIN', 'SOURCE', 'STATE', 'DESCRIPTION'],
      ...o.plugins.map((p) => [p.domain, p.plugin_name, p.source, p.state, p.description]),
    ];
    return alignColumns(rows).join('\n');
  },
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const catalog = ctx.host.catalog();
    const plugins = [...catalog.domains]
      .sort((a, b) => a.domain.localeCompare(b.domain))
      .map((d) => {
        const state: 'enabled' | 'disabled' = catalog.isEnabled(d.domain) ? 'enabled' : 'disabled';
        // Whether the domain has typed tools at all; the state column says whether they are live.
        const published = catalog.all.some((c) => domainOf(c.id) === d.domain);
        const entry: Output['plugins'][number] = {
          plugin_name: d.pluginName,
          domain: d.domain,
          description: d.description,
          abi_version: 1,
          required_tools: d.requiredTools.map((t) => ({ name: t.name, check_args: [...t.check_args], reason: t.reason })),
          source: d.source,
          state,
          mcp_exposed: published,
        };
        if (!published) entry.mcp_omission_reason = 'the domain has no typed commands to publish (only CLI host commands)';
        return entry;
      })
      .filter((p) => args.state === undefined || p.state === args.state);
    return { command: 'plugins.list', plugins };
  },
});
