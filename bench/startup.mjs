// Start-up: `ah --version` and `ah file read <4 KiB>` against bare `node -e 0`, interleaved.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AH, median, round, saveResult, scratchDir, table, timeCommand } from './lib.mjs';

export async function run({ rounds = 21 } = {}) {
  const dir = scratchDir('ah-bench-startup-');
  writeFileSync(join(dir, 'four-k.txt'), `${'x'.repeat(63)}\n`.repeat(64));
  const env = { ...process.env, AH_CONFIG_DIR: join(dir, 'config') };
  const cases = {
    'node -e 0': [process.execPath, ['-e', '0']],
    'ah --version': [process.execPath, [AH, '--version']],
    'ah file read 4KiB': [process.execPath, [AH, 'file', 'read', join(dir, 'four-k.txt')]],
  };
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < rounds + 2; i += 1) {
    for (const [name, [cmd, args]] of Object.entries(cases)) {
      const { ms } = timeCommand(cmd, args, { env });
      if (i >= 2) samples[name].push(ms);
    }
  }
  const base = median(samples['node -e 0']);
  const rows = Object.entries(samples).map(([name, values]) => [name, round(median(values), 1), round(median(values) / base, 2)]);
  const result = {
    node: process.version,
    rounds,
    medians_ms: Object.fromEntries(rows.map((r) => [r[0], r[1]])),
    ratio_to_node: Object.fromEntries(rows.map((r) => [r[0], r[2]])),
  };
  saveResult('startup', result);
  return `### Start-up (median of ${rounds}, ${process.version})\n\n${table(['command', 'ms', '× node -e 0'], rows)}\n\nTargets: --version <= 1.5×, file read <= 2.5×.`;
}
