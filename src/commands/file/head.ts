import { defineCommand } from '../../catalog/descriptor.js';
import { RootObject, type Static } from '../../catalog/schema.js';
import { loadText, splitLines } from './load-text.js';
import {
  cliHints,
  FOLLOW_SYMLINKS,
  LINES,
  MAX_BYTES,
  NUMBER_LINES,
  PATH,
  READ_EFFECTS,
  renderText,
  textOutput,
  textResult,
} from './shared.js';

const input = RootObject({
  path: PATH,
  lines: LINES,
  number_lines: NUMBER_LINES,
  max_bytes: MAX_BYTES,
  follow_symlinks: FOLLOW_SYMLINKS,
});

export const head = defineCommand({
  id: 'file.head',
  title: 'First lines of a file',
  description: 'Return the first N lines (default 20) of a UTF-8 text file.',
  inputSchema: input,
  outputSchema: textOutput('file.head'),
  effects: READ_EFFECTS,
  examples: [{ description: 'First 5 lines', arguments: { path: 'package.json', lines: 5 } }],
  cli: cliHints,
  render: renderText,
  async run(args: Static<typeof input>, ctx) {
    const all = splitLines(await loadText(ctx.cwd, args.path, args.max_bytes, args.follow_symlinks));
    let selected = all.slice(0, args.lines);
    let truncated = false;
    if (ctx.limit !== null && selected.length > ctx.limit) {
      selected = selected.slice(0, ctx.limit);
      truncated = true;
    }
    const range = selected.length === 0 ? { from: null, to: null } : { from: 1, to: selected.length };
    return textResult('file.head', args.path, selected, 1, args.number_lines, truncated, range);
  },
});
