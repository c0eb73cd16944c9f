import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { lineMatcher, searchText, searchZip, stripAnsi, WARNING_WORDS } from './logs.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const opts = { limit: 10, maxExpanded: 1 << 20, domain: 'github', operation: 'github.run.logs' };

describe('log search', () => {
  it('strips CSI colours and OSC titles (BEL and ST forms)', () => {
    expect(stripAnsi('\u001b[1;31mred\u001b[0m \u001b]0;title\u0007x \u001b]8;;http://a\u001b\\link\u001b]8;;\u001b\\')).toBe('red x link');
  });

  it('numbers lines per file, drops CR, and counts past the limit', () => {
    const text = Array.from({ length: 30 }, (_, i) => `warning ${i + 1}\r`).join('\n');
    const out = searchText(text, 'trace', lineMatcher(WARNING_WORDS), 5);
    expect(out.matches.map((m) => m.line)).toEqual([1, 2, 3, 4, 5]);
    expect(out.matches[0]?.text).toBe('warning 1');
    expect(out).toMatchObject({ match_count: 30, truncated: true });
  });

  it('searches nested archive entries in order and stops inflating at max_expanded', async () => {
    const archive = zipSync({ 'a.txt': bytes('x\nERROR one\n'), 'dir/b.txt': bytes('error two\n'), 'dir/': new Uint8Array() });
    const out = await searchZip(archive, lineMatcher(['error']), opts);
    expect(out.matches).toEqual([
      { file: 'a.txt', line: 2, text: 'ERROR one' },
      { file: 'dir/b.txt', line: 1, text: 'error two' },
    ]);
    const big = zipSync({ 'big.txt': bytes('error\n'.repeat(100_000)) });
    const capped = await searchZip(big, lineMatcher(['error']), { ...opts, limit: 1_000_000, maxExpanded: 10_000 });
    expect(capped.truncated).toBe(true);
    expect(capped.match_count).toBeLessThan(100_000);
  });

  it('refuses an archive that is not a zip', async () => {
    await expect(searchZip(bytes('not a zip at all, but long enough to look at'), () => true, opts)).rejects.toMatchObject({
      code: 'GITHUB_RESPONSE_INVALID',
    });
  });
});
