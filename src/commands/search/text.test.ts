import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext, withDefaults } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { text } from './text.js';

describe('search.text handler', () => {
  it('keeps the event loop responsive while scanning a large tree', async () => {
    const dir = tempDir();
    const line = `${'lorem ipsum dolor sit amet '.repeat(8)}\n`;
    for (let d = 0; d < 40; d += 1) {
      mkdirSync(join(dir, `d${d}`));
      for (let f = 0; f < 50; f += 1) writeFileSync(join(dir, `d${d}`, `f${f}.txt`), line.repeat(200) + (f % 7 === 0 ? 'needle\n' : ''));
    }
    const started = performance.now();
    let last = started;
    let worst = 0;
    let ticks = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
      ticks += 1;
    }, 1);
    const result = await text.run(withDefaults(text.inputSchema, { pattern: 'needle' }) as never, testContext({ cwd: dir }));
    clearInterval(ticker);
    const elapsed = performance.now() - started;
    expect(result.match_count).toBe(40 * 8);
    // A correctness check on yielding, not a benchmark: timers run while the tree is scanned, and
    // no single stall holds the loop for most of the scan. The bound scales with the scan's own
    // time, because a loaded machine slows both alike (a fixed 250 ms failed under load).
    expect(ticks).toBeGreaterThanOrEqual(3);
    expect(worst).toBeLessThan(Math.max(250, elapsed / 2));
  });

  it('stops at the caller signal', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'x\n');
    const ctx = testContext({ cwd: dir });
    ctx.controller.abort(new Error('stop'));
    await expect(text.run(withDefaults(text.inputSchema, { pattern: 'x' }) as never, ctx)).rejects.toThrow('stop');
  });
});
