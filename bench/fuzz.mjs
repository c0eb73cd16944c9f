// The fuzz suite (test/fuzz/mcp-fuzz.test.ts) with a bench-sized case count: 10,000 per transport
// unless AH_FUZZ_CASES says otherwise. Runs the built `ah` through Vitest on the machine's node and
// reports cases, outcome and wall time; `node bench/fuzz.mjs` runs it alone.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { systemNode, systemPath } from '../scripts/system-node.mjs';
import { ROOT, round, saveResult, table } from './lib.mjs';

export async function run() {
  const cases = Number(process.env.AH_FUZZ_CASES ?? '10000') || 10000;
  const report = join(tmpdir(), `ah-fuzz-${process.pid}.json`);
  const started = performance.now();
  const result = spawnSync(
    systemNode(),
    [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/fuzz', '--reporter=json', `--outputFile=${report}`],
    { cwd: ROOT, env: { ...process.env, PATH: systemPath(), AH_FUZZ_CASES: String(cases) }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const seconds = (performance.now() - started) / 1000;
  let tests = [];
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    tests = json.testResults.flatMap((file) => file.assertionResults);
  } finally {
    rmSync(report, { force: true });
  }
  const rows = tests.map((t) => [t.fullName, t.status, round((t.duration ?? 0) / 1000, 1)]);
  const failed = tests.filter((t) => t.status !== 'passed').length;
  saveResult('fuzz', { cases_per_transport: cases, exit_code: result.status, seconds: round(seconds, 1), failed, tests: rows });
  return `### Fuzz (${cases} cases per transport, ${round(seconds, 1)} s, ${failed} failed)\n\n${table(['property', 'status', 's'], rows)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const section = await run();
  process.stdout.write(`${section}\n`);
}
