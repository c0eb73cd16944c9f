// The whole test command: lint + format check, type check, build, then the Vitest suite.
// Ends with one summary line `N passed, N failed` (static checks count as one test each).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { systemNode, systemPath } from './system-node.mjs';

const root = new URL('..', import.meta.url).pathname;

// The suite must run on the machine's Node, not the node@22 dev dependency npm puts first on
// PATH (scripts/system-node.mjs): drop node_modules from PATH and re-run on the machine's node.
process.env.PATH = systemPath();
const machineNode = systemNode();
if (machineNode !== process.execPath) {
  const again = spawnSync(machineNode, process.argv.slice(1), { stdio: 'inherit', env: process.env });
  process.exit(again.status ?? 1);
}
const bin = (name) => join(root, 'node_modules', '.bin', name);
const extra = process.argv.slice(2);
let passed = 0;
let failed = 0;

function step(name, command, args) {
  const started = Date.now();
  process.stdout.write(`\n== ${name}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  const ok = result.status === 0;
  process.stdout.write(`== ${name}: ${ok ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  return ok;
}

for (const [name, command, args] of [
  ['lint and format (biome)', bin('biome'), ['ci', '.']],
  ['type check (tsc)', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
  ['build (esbuild)', process.execPath, ['scripts/build.mjs']],
]) {
  if (step(name, command, args)) passed += 1;
  else failed += 1;
}

const reportDir = join(root, 'test-artifacts');
mkdirSync(reportDir, { recursive: true });
const report = join(reportDir, 'vitest.json');
rmSync(report, { force: true });
const vitestOk = step('tests (vitest)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...extra,
]);
try {
  const data = JSON.parse(readFileSync(report, 'utf8'));
  passed += data.numPassedTests ?? 0;
  failed += data.numFailedTests ?? 0;
  for (const file of data.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed')
        process.stdout.write(`FAILED: ${test.fullName}\n  ${(test.failureMessages?.[0] ?? '').split('\n')[0]}\n`);
    }
  }
  // A suite that failed to load has no failed tests but must still count as a failure.
  failed += (data.testResults ?? []).filter((r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0).length;
} catch {
  failed += 1;
}
if (!vitestOk && failed === 0) failed += 1;
process.stdout.write(`\n(node ${process.version})\n${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
