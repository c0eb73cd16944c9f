import { describe, expect, test } from 'vitest';
import { AhError } from '../errors.js';
import { BLOCK_BEGIN, BLOCK_END, findBlock, stripBlock, upsertBlock } from './rules-block.js';

const USER = '# My project\n\nBuild with make.\n';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as AhError).code;
  }
  return undefined;
}

describe('rules block', () => {
  test('inserted after the user text with one blank line, with the exact markers', () => {
    const next = upsertBlock(USER, 'line one\nline two', 'AGENTS.md');
    expect(next).toBe(`${USER}\n${BLOCK_BEGIN}\nline one\nline two\n${BLOCK_END}\n`);
    expect(BLOCK_BEGIN).toBe('<!-- ah:begin (managed by `ah ai install`) -->');
    expect(BLOCK_END).toBe('<!-- ah:end -->');
  });

  test('a new or empty file holds only the block', () => {
    expect(upsertBlock(null, 'x', 'f')).toBe(`${BLOCK_BEGIN}\nx\n${BLOCK_END}\n`);
    expect(upsertBlock('\n\n', 'x', 'f')).toBe(`${BLOCK_BEGIN}\nx\n${BLOCK_END}\n`);
  });

  test('replaced in place: text before and after the block is untouched; same body is a no-op', () => {
    const middle = `${USER}\n${BLOCK_BEGIN}\nold\n${BLOCK_END}\n\n## After\nkeep\n`;
    const next = upsertBlock(middle, 'new', 'f');
    expect(next).toBe(`${USER}\n${BLOCK_BEGIN}\nnew\n${BLOCK_END}\n\n## After\nkeep\n`);
    expect(upsertBlock(next, 'new', 'f')).toBe(next);
  });

  test('strip removes the block and the separator it added, giving back the user text', () => {
    const installed = upsertBlock(USER, 'body', 'f');
    expect(stripBlock(installed, 'f')).toBe(USER);
    expect(stripBlock(upsertBlock(null, 'body', 'f'), 'f')).toBe('');
    const middle = `${USER}\n${BLOCK_BEGIN}\nold\n${BLOCK_END}\n## After\n`;
    expect(stripBlock(middle, 'f')).toBe(`${USER}\n## After\n`);
    expect(stripBlock(USER, 'f')).toBe(USER);
  });

  test('CRLF files keep CRLF', () => {
    const crlf = '# T\r\n\r\ntext\r\n';
    const next = upsertBlock(crlf, 'a\nb', 'f');
    expect(next).toBe(`# T\r\n\r\ntext\r\n\r\n${BLOCK_BEGIN}\r\na\r\nb\r\n${BLOCK_END}\r\n`);
    expect(stripBlock(next, 'f')).toBe(crlf);
  });

  test('unbalanced, repeated or reversed markers are AI_RULES_BLOCK_MALFORMED', () => {
    const cases = [
      `${USER}${BLOCK_BEGIN}\nno end\n`,
      `${USER}${BLOCK_END}\n`,
      `${BLOCK_END}\n${BLOCK_BEGIN}\n`,
      `${BLOCK_BEGIN}\n${BLOCK_END}\n${BLOCK_BEGIN}\n${BLOCK_END}\n`,
    ];
    for (const text of cases) {
      expect(code(() => findBlock(text, 'f'))).toBe('AI_RULES_BLOCK_MALFORMED');
      expect(code(() => upsertBlock(text, 'x', 'f'))).toBe('AI_RULES_BLOCK_MALFORMED');
      expect(code(() => stripBlock(text, 'f'))).toBe('AI_RULES_BLOCK_MALFORMED');
    }
  });
});
