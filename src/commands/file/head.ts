import { defineCommand } from '../../catalog/descriptor.js';
import type { Static } from '../../catalog/schema.js';
import { loadText, splitLines } from './load-text.js';
import { cliHints, linesInput, READ_EFFECTS, renderText, textOutput, textResult } from './shared.js';

const input = linesInput();

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
    return textResult('file.head', args.path, all.slice(0, args.lines), 1, args.number_lines, ctx.limit);
  },
});
