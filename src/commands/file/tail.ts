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

export const tail = defineCommand({
  id: 'file.tail',
  title: 'Last lines of a file',
  description: 'Return the last N lines (default 20) of a UTF-8 text file; from/to give their source line numbers.',
  inputSchema: input,
  outputSchema: textOutput('file.tail'),
  effects: READ_EFFECTS,
  examples: [{ description: 'Last 50 lines of a log', arguments: { path: 'build.log', lines: 50 } }],
  cli: cliHints,
  render: renderText,
  async run(args: Static<typeof input>, ctx) {
    const all = splitLines(await loadText(ctx.cwd, args.path, args.max_bytes, args.follow_symlinks));
    const start = Math.max(0, all.length - args.lines);
    let selected = args.lines === 0 ? [] : all.slice(start);
    let truncated = false;
    if (ctx.limit !== null && selected.length > ctx.limit) {
      selected = selected.slice(0, ctx.limit);
      truncated = true;
    }
    const range = selected.length === 0 ? { from: null, to: null } : { from: start + 1, to: start + selected.length };
    return textResult('file.tail', args.path, selected, start + 1, args.number_lines, truncated, range);
  },
});
