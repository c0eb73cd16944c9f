import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext, withDefaults } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { text } from './text.js';

describe('search.text handler', () => {
  /** A tree of 2,000 files (about 10 MiB) with a hit in every seventh file. */
  function largeTree(): string {
    const dir = tempDir();
    const line = `${'lorem ipsum dolor sit amet '.repeat(8)}\n`;
    for (let d = 0; d < 40; d += 1) {
      mkdirSync(join(dir, `d${d}`));
      for (let f = 0; f < 50; f += 1) writeFileSync(join(dir, `d${d}`, `f${f}.txt`), line.repeat(200) + (f % 7 === 0 ? 'needle\n' : ''));
    }
    return dir;
  }

  /** Runs a search with a 1 ms timer beside it: how often the timer ran, and its longest wait. */
  async function timed(transport: 'cli' | 'mcp'): Promise<{ ticks: number; worst: number; elapsed: number }> {
    const dir = largeTree();
    // Arguments and context are built before the timer starts: only the search is measured.
    const args = withDefaults(text.inputSchema, { pattern: 'needle' }) as never;
    // AH_SEARCH_WORKERS=0: a server scanning on its own thread (as it does without a worker program).
    const ctx = testContext({ cwd: dir, transport, env: { PATH: process.env.PATH, AH_SEARCH_WORKERS: '0' } });
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
    const result = await text.run(args, ctx);
    clearInterval(ticker);
    const elapsed = performance.now() - started;
    worst = Math.max(worst, performance.now() - last);
    expect(result.match_count).toBe(40 * 8);
    return { ticks, worst, elapsed };
  }

  // Correctness checks on yielding, not benchmarks: timers run while the tree is scanned, and no
  // single stall holds the loop for most of the scan. The stall bound scales with the scan's own
  // time, because a loaded machine slows both alike (a fixed 250 ms failed under load).
  it('lets timers run between the slices the CLI scans on its own thread', async () => {
    const { ticks, worst, elapsed } = await timed('cli');
    // Slices end after 20 ms of wall time and each yield reaches the timers phase, so ticks keep
    // pace with the scan however slow the machine (a yield that skipped timers gave one per 40 ms).
    expect(ticks).toBeGreaterThanOrEqual(Math.max(1, Math.floor(elapsed / 35)));
    expect(worst).toBeLessThan(Math.max(250, elapsed / 2));
  });

  it("keeps a server's event loop turning when it scans on its own thread", async () => {
    const { ticks, worst, elapsed } = await timed('mcp');
    expect(ticks).toBeGreaterThanOrEqual(Math.max(1, Math.floor(elapsed / 35)));
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
