import { defineCommand } from '../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { lineCount } from '../../platform/text.js';
import { loadText, splitLines } from './load-text.js';
import { FOLLOW_SYMLINKS, MAX_BYTES, MAX_LINES, NUMBER_LINES, PATH, TEXT_COMMAND, textOutput, textResult } from './shared.js';

const input = RootObject({
  path: PATH,
  from: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LINES, description: 'First line to return (inclusive, 1-based)' })),
  to: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LINES, description: 'Last line to return (inclusive)' })),
  number_lines: NUMBER_LINES,
  max_bytes: MAX_BYTES,
  follow_symlinks: FOLLOW_SYMLINKS,
});

export const read = defineCommand({
  ...TEXT_COMMAND,
  id: 'file.read',
  title: 'Read a file',
  description: 'Read a UTF-8 text file, whole or a line range (from/to are inclusive and 1-based). Binary and oversize files are refused.',
  inputSchema: input,
  outputSchema: textOutput('file.read'),
  examples: [
    { description: 'Read a whole file', arguments: { path: 'README.md' } },
    { description: 'Read lines 1 to 20 with line numbers', arguments: { path: 'README.md', from: 1, to: 20, number_lines: true } },
  ],
  async run(args: Static<typeof input>, ctx) {
    const from = args.from ?? 1;
    if (args.to !== undefined && args.to < from) {
      throw new AhError({ code: 'INVALID_RANGE', message: '--to must be >= --from', cause: `from ${from}, to ${args.to}` });
    }
    const text = await loadText(ctx.cwd, args.path, args.max_bytes, args.follow_symlinks);
    // The whole file as it is (the common call): no split into lines and join back.
    if (from === 1 && args.to === undefined && !args.number_lines) {
      const count = lineCount(text);
      if (ctx.limit === null || count <= ctx.limit) {
        const content = text.endsWith('\n') ? text.slice(0, -1) : text;
        return { command: 'file.read', path: args.path, from, to: null, numbered: false, line_count: count, truncated: false, content };
      }
    }
    const lines = splitLines(text);
    const end = args.to === undefined ? lines.length : Math.min(args.to, lines.length);
    return textResult('file.read', args.path, lines.slice(from - 1, end), from, args.number_lines, ctx.limit, {
      from,
      to: args.to ?? null,
    });
  },
});
