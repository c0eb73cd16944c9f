/** file.head and file.tail: the first or the last N lines of a text file. */
import { defineCommand } from '../../catalog/descriptor.js';
import type { Static } from '../../catalog/schema.js';
import { loadText, splitLines } from './load-text.js';
import { LINES_INPUT, TEXT_COMMAND, textOutput, textResult } from './shared.js';

async function loadLines(args: Static<typeof LINES_INPUT>, cwd: string): Promise<string[]> {
  return splitLines(await loadText(cwd, args.path, args.max_bytes, args.follow_symlinks));
}

export const head = defineCommand({
  ...TEXT_COMMAND,
  inputSchema: LINES_INPUT,
  id: 'file.head',
  title: 'First lines of a file',
  description: 'Return the first N lines (default 20) of a UTF-8 text file.',
  outputSchema: textOutput('file.head'),
  examples: [{ description: 'First 5 lines', arguments: { path: 'package.json', lines: 5 } }],
  async run(args: Static<typeof LINES_INPUT>, ctx) {
    const all = await loadLines(args, ctx.cwd);
    return textResult('file.head', args.path, all.slice(0, args.lines), 1, args.number_lines, ctx.limit);
  },
});

export const tail = defineCommand({
  ...TEXT_COMMAND,
  inputSchema: LINES_INPUT,
  id: 'file.tail',
  title: 'Last lines of a file',
  description: 'Return the last N lines (default 20) of a UTF-8 text file; from/to give their source line numbers.',
  outputSchema: textOutput('file.tail'),
  examples: [{ description: 'Last 50 lines of a log', arguments: { path: 'build.log', lines: 50 } }],
  async run(args: Static<typeof LINES_INPUT>, ctx) {
    const all = await loadLines(args, ctx.cwd);
    const start = Math.max(0, all.length - args.lines);
    const selected = args.lines === 0 ? [] : all.slice(start);
    return textResult('file.tail', args.path, selected, start + 1, args.number_lines, ctx.limit);
  },
});
