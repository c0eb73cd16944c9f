// The test command. `node scripts/test.mjs [--suite all|unit|e2e|slow] [vitest args…]`
//   all (npm test): install the test clients if needed, lint and format, file names, each import
//                   rule, import cycles, type check, build, then every Vitest project.
//   unit (npm run test:unit): the unit project only (no build).
//   e2e (npm run test:e2e): build, then the e2e project.
//   slow (npm run test:slow): test clients, build, then the slow project (real components).
// Every check is a named step; static checks count as one test each. The last line is exactly
// `N passed, M failed, K skipped`; the reason and install hint of every skipped suite are printed
// above it, and under CI=true every skipped test also counts as failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { installTestClients } from './install-test-clients.mjs';
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

const argv = process.argv.slice(2);
let suite = 'all';
const at = argv.indexOf('--suite');
if (at !== -1) {
  suite = argv[at + 1] ?? '';
  argv.splice(at, 2);
}
if (!['all', 'unit', 'e2e', 'slow'].includes(suite)) {
  process.stderr.write(`test.mjs: --suite must be one of: all, unit, e2e, slow (got '${suite}')\n`);
  process.exit(2);
}
const ci = process.env.CI === 'true' || process.env.CI === '1';
const bin = (name) => join(root, 'node_modules', '.bin', name);
const artifacts = join(root, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });

let passed = 0;
let failed = 0;
const failedSteps = [];

function report(name, ok, seconds, lines = []) {
  for (const line of lines) process.stdout.write(`  ${line}\n`);
  process.stdout.write(`== ${name}: ${ok ? 'ok' : 'FAILED'}${seconds === undefined ? '' : ` (${seconds.toFixed(1)} s)`}\n`);
  if (ok) passed += 1;
  else {
    failed += 1;
    failedSteps.push(name);
  }
}

/** Runs one program as a named step with its output shown; counts as one test. */
function step(name, command, args, options = {}) {
  const started = Date.now();
  process.stdout.write(`\n== ${name}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  const ok = result.status === 0;
  if (options.count === false) {
    process.stdout.write(`== ${name}: ${ok ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    return ok;
  }
  report(name, ok, (Date.now() - started) / 1000);
  return ok;
}

// Biome rules that have their own steps below, so a boundary failure is not a "lint" failure.
const IMPORT_RULES = ['style/noRestrictedImports', 'nursery/noJsRestrictedProperties'];
const NAME_RULE = 'style/useFilenamingConvention';
// Each import rule's diagnostics start with its id (see biome.json); process.kill is platform-owns-os.
const BOUNDARIES = [
  ['catalog-contracts', 'catalog holds contracts only: no secrets, surfaces, commands, no I/O'],
  ['cli-no-commands', 'surfaces/cli does not import commands'],
  ['platform-owns-os', 'only platform starts or signals processes and asks the OS for user paths'],
  ['mcp-sdk-in-surfaces-mcp', 'only surfaces/mcp imports the MCP SDK'],
];

/** One Biome run of the import rules over src/, reported as one step per rule. */
function importRules() {
  const started = Date.now();
  process.stdout.write('\n== import rules (biome)\n');
  const only = IMPORT_RULES.flatMap((r) => ['--only', r]);
  const result = spawnSync(bin('biome'), ['lint', ...only, '--reporter=json', '--max-diagnostics=none', 'src'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  let diagnostics;
  try {
    diagnostics = JSON.parse(result.stdout).diagnostics ?? [];
  } catch {
    process.stdout.write(`${result.stdout}${result.stderr}`);
    for (const [id, what] of BOUNDARIES) report(`imports: ${id} (${what})`, false, undefined, ['biome gave no JSON report']);
    return;
  }
  const seconds = (Date.now() - started) / 1000;
  const byRule = new Map(BOUNDARIES.map(([id]) => [id, []]));
  const other = [];
  for (const d of diagnostics) {
    if (d.severity !== 'error') continue;
    const where = `${d.location?.path ?? '?'}:${d.location?.start?.line ?? '?'}`;
    // Biome's JSON report drops noJsRestrictedProperties' custom message: name the rule here.
    const signal = d.category === 'lint/nursery/noJsRestrictedProperties';
    const id = signal ? 'platform-owns-os' : /^([a-z-]+):/.exec(d.message ?? '')?.[1];
    const list = id === undefined ? undefined : byRule.get(id);
    if (list) list.push(`${where}: ${signal ? `platform-owns-os: ${d.message} Signal processes through src/platform.` : d.message}`);
    else other.push(`${where}: ${d.category}: ${d.message}`);
  }
  for (const [id, what] of BOUNDARIES) {
    const found = byRule.get(id) ?? [];
    report(`imports: ${id} (${what})`, found.length === 0, seconds, found);
  }
  if (other.length > 0) report('imports: other diagnostics', false, seconds, other);
}

// 1. What npm test installs by itself: the real agent clients (everything else needs the system
//    package manager: .ci/run).
if (suite === 'all' || suite === 'slow') {
  process.stdout.write('\n== test clients (test/clients)\n');
  const started = Date.now();
  const { ok, message } = installTestClients();
  report('test clients (test/clients)', ok, (Date.now() - started) / 1000, [message]);
}

// 2. Static checks.
if (suite === 'all') {
  step('lint and format (biome)', bin('biome'), ['ci', '.', ...[...IMPORT_RULES, NAME_RULE].flatMap((r) => ['--skip', r])]);
  step('file names are kebab-case (biome)', bin('biome'), ['lint', '--only', NAME_RULE, '.']);
  importRules();
  step('no import cycles (dependency-cruiser)', bin('depcruise'), [
    '--config',
    'scripts/dependency-cruiser.cjs',
    '--output-type',
    'err',
    'src',
  ]);
  step('type check (tsc)', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
}
if (suite !== 'unit') step('build (esbuild)', process.execPath, ['scripts/build.mjs']);

// 3. The Vitest projects.
const reportFile = join(artifacts, 'vitest.json');
const skipLog = join(artifacts, 'skips.jsonl');
rmSync(reportFile, { force: true });
rmSync(skipLog, { force: true });
const projects = suite === 'all' ? [] : ['--project', suite];
const vitestOk = step(
  'tests (vitest)',
  bin('vitest'),
  ['run', ...projects, '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...argv],
  { count: false, env: { ...process.env, AH_TEST_SKIP_LOG: skipLog } },
);

let skipped = 0;
let testsFailed = 0;
const skippedTests = [];
try {
  const data = JSON.parse(readFileSync(reportFile, 'utf8'));
  for (const file of data.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed') passed += 1;
      else if (test.status === 'failed') {
        testsFailed += 1;
        process.stdout.write(`FAILED: ${test.fullName}\n  ${(test.failureMessages?.[0] ?? '').split('\n')[0]}\n`);
      } else {
        skipped += 1;
        skippedTests.push(test);
      }
    }
    // A suite that failed to load has no failed tests but must still count as a failure.
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) {
      testsFailed += 1;
      process.stdout.write(`FAILED: ${file.name}\n  ${(file.message ?? '').split('\n')[0]}\n`);
    }
  }
} catch {
  testsFailed += 1;
  process.stdout.write(`FAILED: no Vitest report at ${reportFile}\n`);
}
if (!vitestOk && testsFailed === 0) testsFailed += 1;
failed += testsFailed;

// 4. Skips: one line per skipped suite with its reason and install hint (test/helpers/requires.ts).
const records = existsSync(skipLog)
  ? [
      ...new Map(
        readFileSync(skipLog, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
          .map((r) => [`${r.suite}\0${r.need}`, r]),
      ).values(),
    ]
  : [];
const explained = (test) => records.some((r) => test.title === r.suite || (test.ancestorTitles ?? []).includes(r.suite));
if (skipped > 0 || records.length > 0) process.stdout.write('\n');
for (const r of records) {
  const count = skippedTests.filter((t) => t.title === r.suite || (t.ancestorTitles ?? []).includes(r.suite)).length;
  process.stdout.write(`skipped: ${r.suite} (${count} test${count === 1 ? '' : 's'}): ${r.reason}; install: ${r.hint}\n`);
}
for (const t of skippedTests.filter((t) => !explained(t))) {
  process.stdout.write(`skipped: ${t.fullName}: no reason recorded (skip through test/helpers/requires.ts)\n`);
}
if (ci && skipped > 0) {
  process.stdout.write(`CI=true: ${skipped} skipped test${skipped === 1 ? '' : 's'} counted as failed\n`);
  failed += skipped;
}
if (failedSteps.length > 0) process.stdout.write(`\nfailed steps: ${failedSteps.join('; ')}\n`);
process.stdout.write(
  `\n(node ${process.version}, suite ${suite}${ci ? ', CI' : ''})\n${passed} passed, ${failed} failed, ${skipped} skipped\n`,
);
process.exit(failed === 0 ? 0 : 1);
