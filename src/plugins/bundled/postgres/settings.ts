import { defineCommand } from '../../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { CONNECTION_INPUTS, DATABASE_SLOT, READ_EFFECTS } from './inputs.js';
import { listOutput, renderList, runListing } from './listing.js';

const input = RootObject({
  ...CONNECTION_INPUTS,
  changed: Type.Boolean({ default: false, description: 'Only settings not at their built-in default' }),
});
const row = Closed({
  name: Type.String(),
  setting: Nullable(Type.String()),
  unit: Nullable(Type.String()),
  source: Type.String(),
  short_desc: Nullable(Type.String()),
});
const output = listOutput('postgres.settings', row);

export const settings = defineCommand({
  id: 'postgres.settings',
  title: 'Server settings',
  description:
    'List run-time settings from pg_settings as this session sees them: value, unit, where the value comes from and a short description. ah sets DateStyle, IntervalStyle, extra_float_digits and application_name for its own session.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: [DATABASE_SLOT],
  stateless: true,
  examples: [{ description: 'Settings changed from their defaults', arguments: { changed: true } }],
  render: renderList,
  run: (args: Static<typeof input>, ctx) =>
    runListing<'postgres.settings', Static<typeof row>>('postgres.settings', args, ctx, {
      text: `select name, setting, unit, source, short_desc
from pg_settings
where not $1::bool or source not in ('default', 'override')
order by name`,
      values: [args.changed],
    }),
});
