import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { alignColumns } from '../../platform/text.js';
import { SECRET_KINDS } from '../../secrets/types.js';
import { readsConfiguration } from '../plugins/shared.js';

const KIND = Type.Union(
  SECRET_KINDS.map((k) => Type.Literal(k)),
  { description: `Record kind: ${SECRET_KINDS.join(', ')}` },
);
const input = RootObject({ kind: Type.Optional(KIND) });
const output = RootObject({
  secrets: Type.Array(Closed({ id: Type.String(), kind: KIND, label: Type.String(), description: Nullable(Type.String()) })),
});
type Output = Static<typeof output>;

export const list = defineCommand({
  id: 'secrets.list',
  title: 'List secrets',
  description:
    "List the records in the encrypted secrets vault (id, kind, label, description only; never values). Use an id from here in a command's credentials, filtered by the kind its credential slot accepts.",
  inputSchema: input,
  outputSchema: output,
  effects: readsConfiguration('Reads secret metadata from the vault; never returns values and changes nothing.'),
  examples: [
    { description: 'Every stored secret', arguments: {} },
    { description: 'Only GitHub tokens', arguments: { kind: 'github-token' } },
  ],
  // The vault lives in the config root, not the working directory.
  stateless: true,
  render: (o: Output) => {
    if (o.secrets.length === 0) return 'no secrets stored';
    const rows = [['ID', 'KIND', 'LABEL', 'DESCRIPTION'], ...o.secrets.map((s) => [s.id, s.kind, s.label, s.description ?? ''])];
    // Trailing spaces trimmed: the description column may be empty.
    return alignColumns(rows)
      .map((line) => line.trimEnd())
      .join('\n');
  },
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const secrets = await ctx.host.vault.list(args.kind);
    // Copy field by field: only metadata may leave, whatever the store returns.
    return { secrets: secrets.map((s) => ({ id: s.id, kind: s.kind, label: s.label, description: s.description })) };
  },
});
