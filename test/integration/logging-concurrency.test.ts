// Four real processes append large records to the same daily log at once: every line parses.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';

function run(script: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

describe('log appends from parallel writers', () => {
  it('never interleave lines', async () => {
    const dir = tempDir();
    const module = join(dir, 'events.mjs');
    await build({
      entryPoints: [join(import.meta.dirname, '../../src/logging/events.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: module,
      logLevel: 'silent',
    });
    const config = join(dir, 'config');
    const writers = [1, 2, 3, 4].map((n) =>
      run(`
        import { createEventLog } from ${JSON.stringify(module)};
        const log = createEventLog({ configDir: ${JSON.stringify(config)}, unredacted: false });
        for (let i = 0; i < 500; i++) {
          log.commandCompleted({ transport: 'cli', command: 'w.${n}', parameters: { i, blob: 'x'.repeat(3000), more: 'y'.repeat(3000) }, status: 'success', duration_ms: 1 });
          if (i % 100 === 99) await log.flush();
        }
        await log.flush();
      `),
    );
    expect(await Promise.all(writers)).toEqual([0, 0, 0, 0]);
    const files = readdirSync(join(config, 'logs')).filter((f) => f.endsWith('.jsonl'));
    const all = files.flatMap((f) =>
      readFileSync(join(config, 'logs', f), 'utf8')
        .trimEnd()
        .split('\n'),
    );
    const records = all.map((l) => JSON.parse(l) as { command: string });
    expect(records).toHaveLength(2000);
    for (const n of [1, 2, 3, 4]) expect(records.filter((r) => r.command === `w.${n}`)).toHaveLength(500);
  }, 60_000);
});
