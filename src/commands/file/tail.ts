import { defineCommand } from '../../catalog/descriptor.js';
import type { Static } from '../../catalog/schema.js';
import { loadText, splitLines } from './load-text.js';
import { cliHints, linesInput, READ_EFFECTS, renderText, textOutput, textResult } from './shared.js';

const input = linesInput();

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
    const selected = args.lines === 0 ? [] : all.slice(start);
    return textResult('file.tail', args.path, selected, start + 1, args.number_lines, ctx.limit);
  },
});
