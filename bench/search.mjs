// search text over a large real tree (this repo's node_modules) against ripgrep, the Node floor and
// grep -rn, interleaved, plus the event-loop delay while four searches run in one process.

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { AH, inRoundOrder, median, ROOT, round, saveResult, startListening, table, timeCommand } from './lib.mjs';

const PATTERNS = [
  { name: 'literal', ah: ['createRequire'], rg: ['-F', 'createRequire'], grep: ['-F', 'createRequire'] },
  { name: 'regex', ah: ['use(Effect|State)\\(', '--regex'], rg: ['use(Effect|State)\\('], grep: ['-E', 'use(Effect|State)\\('] },
];
const FLOOR = join(ROOT, 'bench', 'read-floor.cjs');
const THREADS_FLOOR = join(ROOT, 'bench', 'read-floor-threads.cjs');
const START = 'bare node start';
const FLOOR_ROW = 'node floor (bare node start + read floor)';
const WALK_FLOOR_ROW = 'walk floor (node floor + readdir of the directories above the files)';
const THREADS_FLOOR_ROW = 'two-thread floor (node floor shared with a worker)';
/** Issue 19's targets: the CLI against the Node floor, the in-process call against ripgrep. */
const CLI_TARGET = 1.3;
const IN_PROCESS_TARGET = 1.5;
/** Batches of four concurrent searches the event-loop delay is measured over (eventLoopDelay). */
const EVENT_LOOP_BATCHES = 5;
const AH_START = 'ah start (search files, empty dir)';
const WHAT_IF = 'what-if: node + rg --json';
/** Issue 19's other what-if: the CLI's search done by a warm ah process (bench/thin-call.cjs). */
const WARM_SERVER = 'what-if: node + running ah server';
const THIN_CALL = join(ROOT, 'bench', 'thin-call.cjs');

/**
 * The ripgrep engine issue 19 asks about, as the least it would cost from a cold Node process: start
 * ripgrep with --json (no config file, RIPGREP_CONFIG_PATH dropped), turn every match into
 * search.text's record (1-based column in characters), and sort into the walk's order (path
 * components, then line). An \`ah\` on that engine would add ah's start-up over a bare Node start.
 * Run with \`node -e\`: argv is rg, tree, pattern, 'regex' or 'literal'.
 */
const WHAT_IF_SCRIPT = `
const { spawn } = require('node:child_process');
const [rg, tree, pattern, mode] = process.argv.slice(1);
const env = { ...process.env };
delete env.RIPGREP_CONFIG_PATH;
const flags = mode === 'regex' ? ['-e', pattern] : ['-F', '-e', pattern];
const child = spawn(rg, ['--no-config', '--json', '--max-filesize', '1048576', ...flags, '--', tree], { env, stdio: ['ignore', 'pipe', 'ignore'] });
const chunks = [];
child.stdout.on('data', (c) => chunks.push(c));
child.on('close', () => {
  const matches = [];
  for (const line of Buffer.concat(chunks).toString('utf8').split('\\n')) {
    if (!line.startsWith('{"type":"match"')) continue;
    const d = JSON.parse(line).data;
    const bytes = d.lines.text === undefined ? Buffer.from(d.lines.bytes, 'base64') : Buffer.from(d.lines.text);
    const column = [...bytes.subarray(0, d.submatches[0].start).toString('utf8')].length + 1;
    const text = bytes.toString('utf8').replace(/\\r?\\n$/, '');
    matches.push({ path: d.path.text, parts: d.path.text.split('/'), line: d.line_number, column, text, context_before: [], context_after: [] });
  }
  matches.sort((a, b) => {
    for (let i = 0; i < Math.min(a.parts.length, b.parts.length); i += 1)
      if (a.parts[i] !== b.parts[i]) return a.parts[i] < b.parts[i] ? -1 : 1;
    return a.parts.length - b.parts.length || a.line - b.line;
  });
  for (const m of matches) delete m.parts;
  process.stdout.write(JSON.stringify({ match_count: matches.length, matches }));
});
`;

/**
 * The trees searched. This repo's node_modules as it sits in the repo: the repo's .gitignore
 * (`dist/` among others) hides two thirds of it from every tool. And the same node_modules outside
 * any repository (hard links in the temp dir, so no copy of the data), ~120 MB searched: the
 * "~100 MB" tree the foundation issue names. AH_BENCH_TREE=PATH searches that tree alone.
 */
function trees(scratch) {
  if (process.env.AH_BENCH_TREE) return [{ name: 'AH_BENCH_TREE', path: process.env.AH_BENCH_TREE }];
  const list = [{ name: 'node_modules in the repo', path: join(ROOT, 'node_modules') }];
  const inRepo = spawnSync('git', ['-C', scratch, 'rev-parse', '--show-toplevel'], { stdio: 'ignore' }).status === 0;
  if (inRepo) return list;
  const copy = join(scratch, 'node_modules');
  // A git worktree's node_modules may be a symlink to another checkout's: copy what it points to,
  // or the "outside" tree would be a link back into a repository (and its ignore rules).
  const source = realpathSync(join(ROOT, 'node_modules'));
  try {
    execFileSync('cp', ['-al', source, copy], { stdio: 'ignore' });
  } catch {
    // Another file system: a real copy.
    rmSync(copy, { recursive: true, force: true });
    execFileSync('cp', ['-a', source, copy], { stdio: 'ignore' });
  }
  list.push({ name: 'node_modules outside any repo', path: copy });
  return list;
}

/** ripgrep's list of the files it searches in a tree (for the floor) and their total size. */
function searchedFiles(rgPath, tree, list) {
  const out = execFileSync(rgPath, ['--no-config', '--files', '--max-filesize', '1M', tree], { maxBuffer: 1 << 28 }).toString();
  const files = out.split('\n').filter(Boolean);
  writeFileSync(list, `${files.join('\n')}\n`);
  let bytes = 0;
  for (const file of files) bytes += statSync(file).size;
  return { list, files: files.length, bytes };
}

export async function run({ rounds = 5 } = {}) {
  const { rgPath } = await import('@vscode/ripgrep');
  // One scratch directory for the run (config, file lists, the tree copy), removed at the end.
  const scratch = mkdtempSync(join(tmpdir(), 'ah-bench-search-'));
  try {
    return await measure(rgPath, scratch, rounds);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function measure(rgPath, scratch, rounds) {
  const env = { ...process.env, AH_CONFIG_DIR: join(scratch, 'config') };
  const text = await loadSearch(scratch);
  const empty = join(scratch, 'empty');
  mkdirSync(empty);
  // One server for the warm-server what-if, with the CLI's configuration; warm after round 0.
  const server = await startListening([AH, 'mcp', 'serve', '--transport', 'http', '--port', '0'], env, /127\.0\.0\.1:(\d+)\/mcp/);
  try {
    return await measureWith(rgPath, scratch, rounds, { env, text, empty, mcpUrl: `http://127.0.0.1:${server.port}/mcp` });
  } finally {
    server.stop();
  }
}

async function measureWith(rgPath, scratch, rounds, { env, text, empty, mcpUrl }) {
  const result = { rounds, trees: [] };
  const sections = [];
  for (const [index, tree] of trees(scratch).entries()) {
    const searched = searchedFiles(rgPath, tree.path, join(scratch, `files-${index}.txt`));
    const entry = { name: tree.name, path: tree.path, files: searched.files, bytes: searched.bytes, patterns: {} };
    const rows = [];
    for (const p of PATTERNS) {
      const cases = {
        ah: () => timeCommand(process.execPath, [AH, '--json', 'search', 'text', ...p.ah, tree.path, '--max-bytes', '1048576'], { env }),
        // The same search in this process: what the MCP server pays per call (no CLI start-up).
        'ah in-process': async () => {
          const started = process.hrtime.bigint();
          const out = await text.run(args(tree.path, p.ah[0], p.ah.includes('--regex')), context());
          return { ms: Number(process.hrtime.bigint() - started) / 1e6, count: out.match_count };
        },
        rg: () => timeCommand(rgPath, ['--no-config', '-n', '--max-filesize', '1M', ...p.rg, tree.path], { allowFailure: true }),
        [START]: () => ({ ...timeCommand(process.execPath, ['-e', '0']), count: '-' }),
        [AH_START]: () => ({ ...timeCommand(process.execPath, [AH, '--json', 'search', 'files', 'x', empty], { env }), count: '-' }),
        [WHAT_IF]: () =>
          timeCommand(process.execPath, ['-e', WHAT_IF_SCRIPT, rgPath, tree.path, p.ah[0], p.ah.includes('--regex') ? 'regex' : 'literal']),
        [WARM_SERVER]: () =>
          timeCommand(process.execPath, [THIN_CALL, mcpUrl, tree.path, p.ah[0], p.ah.includes('--regex') ? 'regex' : 'literal']),
        [FLOOR_ROW]: () => ({ ...timeCommand(process.execPath, [FLOOR, searched.list, 'createRequire']), count: '-' }),
        [WALK_FLOOR_ROW]: () => ({ ...timeCommand(process.execPath, [FLOOR, searched.list, 'createRequire', tree.path]), count: '-' }),
        [THREADS_FLOOR_ROW]: () => ({ ...timeCommand(process.execPath, [THREADS_FLOOR, searched.list, 'createRequire']), count: '-' }),
        'grep -rn': () => timeCommand('grep', ['-rn', ...p.grep, tree.path], { allowFailure: true }),
      };
      const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
      const counts = {};
      // Round 0 warms the page cache and is not counted.
      for (let i = 0; i <= rounds; i += 1) {
        for (const [name, fn] of inRoundOrder(Object.entries(cases), i)) {
          const { ms, stdout, count } = await fn();
          if (i > 0) samples[name].push(ms);
          if (i === 0)
            counts[name] =
              count ??
              (name === 'ah' || name === WHAT_IF || name === WARM_SERVER
                ? JSON.parse(stdout.toString()).match_count
                : stdout.toString().split('\n').filter(Boolean).length);
        }
      }
      const rg = median(samples.rg);
      const floor = median(samples[FLOOR_ROW]);
      for (const name of Object.keys(cases))
        rows.push([
          p.name,
          name,
          counts[name],
          round(median(samples[name]), 0),
          round(median(samples[name]) / rg, 2),
          round(median(samples[name]) / floor, 2),
        ]);
      const cli = round(median(samples.ah) / floor, 2);
      // ah on a ripgrep engine: the what-if plus what ah's start costs over a bare Node start.
      const rgEngine = median(samples[WHAT_IF]) + median(samples[AH_START]) - median(samples[START]);
      // The least any CLI that walks the tree could take with ah's start-up: the walk floor plus
      // what ah's start costs over a bare Node start.
      const walkingBound = median(samples[WALK_FLOOR_ROW]) + median(samples[AH_START]) - median(samples[START]);
      const inProcess = round(median(samples['ah in-process']) / rg, 2);
      entry.patterns[p.name] = {
        medians_ms: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, round(median(v), 1)])),
        ratio_vs_rg: round(median(samples.ah) / rg, 2),
        cli_ratio_vs_node_floor: cli,
        cli_target_met: cli <= CLI_TARGET,
        in_process_ratio_vs_rg: inProcess,
        in_process_target_met: inProcess <= IN_PROCESS_TARGET,
        floor_ratio_vs_rg: round(floor / rg, 2),
        ah_start_ratio_vs_node_floor: round(median(samples[AH_START]) / floor, 2),
        walk_floor_ratio_vs_node_floor: round(median(samples[WALK_FLOOR_ROW]) / floor, 2),
        two_thread_floor_ratio_vs_node_floor: round(median(samples[THREADS_FLOOR_ROW]) / floor, 2),
        walking_bound_ms: round(walkingBound, 1),
        walking_bound_ratio_vs_node_floor: round(walkingBound / floor, 2),
        rg_engine_estimate_ms: round(rgEngine, 1),
        rg_engine_estimate_ratio_vs_node_floor: round(rgEngine / floor, 2),
        warm_server_ratio_vs_node_floor: round(median(samples[WARM_SERVER]) / floor, 2),
        counts,
        counts_equal:
          counts.ah === counts.rg &&
          counts['ah in-process'] === counts.rg &&
          counts[WHAT_IF] === counts.rg &&
          counts[WARM_SERVER] === counts.rg,
      };
    }
    result.trees.push(entry);
    const met = (ok) => (ok ? 'met' : 'NOT met');
    const summary = PATTERNS.map((p) => {
      const r = entry.patterns[p.name];
      return `- ${p.name}: CLI **${r.cli_ratio_vs_node_floor}× the Node floor** (target <= ${CLI_TARGET}×: ${met(r.cli_target_met)}); in-process **${r.in_process_ratio_vs_rg}× rg** (target <= ${IN_PROCESS_TARGET}×: ${met(r.in_process_target_met)}); CLI ${r.ratio_vs_rg}× rg, Node floor ${r.floor_ratio_vs_rg}× rg; ah's start alone ${r.ah_start_ratio_vs_node_floor}× the Node floor; the least a walking CLI with ah's start can take (walk floor + ah start − bare node start) ${r.walking_bound_ratio_vs_node_floor}× the Node floor; the Node floor on two threads ${r.two_thread_floor_ratio_vs_node_floor}×; ah on a ripgrep engine (what-if + ah start − bare node start) ~${r.rg_engine_estimate_ratio_vs_node_floor}× the Node floor; the search done by a running ah server for a cold Node client (what-if) ${r.warm_server_ratio_vs_node_floor}× the Node floor; match counts ${r.counts_equal ? 'equal' : `DIFFER (ah ${r.counts.ah}, rg ${r.counts.rg})`}`;
    }).join('\n');
    const mb = round(searched.bytes / 1e6, 0);
    sections.push(
      `### search text, ${tree.name} (${searched.files} files, ${mb} MB searched; median of ${rounds}; load average ${loadAverage()})\n\n${table(['pattern', 'tool', 'matching lines', 'ms', '× ripgrep', '× node floor'], rows)}\n\n${summary}`,
    );
  }
  const delay = await eventLoopDelay(text, result.trees[0].path);
  result.event_loop_p99_ms = delay.p99;
  result.event_loop_p99_batches_ms = delay.batches;
  result.load_average = loadAverage();
  saveResult('search', result);
  return `${sections.join('\n\n')}\n\nEvent-loop delay p99 while four searches run in one process: **${delay.p99} ms** (target < 50 ms; median of ${EVENT_LOOP_BATCHES} batches, the worst ${delay.worst} ms).\n\`ah\` is the CLI (process start-up and catalog load included), \`ah in-process\` the same call inside a running process (as over MCP). The Node floor is a bare Node start plus the read floor: one Node process that only opens, reads and closes the files ripgrep searched, from a list made beforehand, with one indexOf of the literal per file (\`bench/read-floor.cjs\`); its column counts nothing. The walk floor is the same process listing first, one readdir each, every directory from the tree's root down to each listed file, which any searcher that walks instead of reading a ready list must also do. The two-thread floor is the Node floor's reads shared with a worker thread started first, both claiming chunks of 16 files from one counter (\`bench/read-floor-threads.cjs\`): the most a second thread can give a search in one Node process here. \`bare node start\` (\`node -e 0\`) is the start-up share of every floor; \`ah start\` is the same for ah (a \`search files\` in an empty directory). \`what-if: node + rg --json\` is a cold Node process that runs ripgrep with --json and turns its matches into search.text's records in walk order (the least a ripgrep engine would cost; it is not ah's contract: see the README). \`what-if: node + running ah server\` is a cold Node process (\`bench/thin-call.cjs\`) that has an \`ah mcp serve --transport http\` started before the rounds do the same search.text over loopback and prints its result: what a CLI served by a warm ah process would cost, without ah's own start-up. grep counts differ: it ignores .gitignore and hidden-file rules and searches binary and large files.`;
}

/** The machine's load average (1, 5, 15 minutes): every number here depends on it. */
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const context = () => ({
  cwd: ROOT,
  limit: null,
  signal: new AbortController().signal,
  deadline: Number.POSITIVE_INFINITY,
  env: process.env,
  credentials: {},
  notice() {},
  progress() {},
  // As the MCP server calls it: on worker threads, the event loop free.
  transport: 'mcp',
});

const args = (tree, pattern, regex) => ({
  pattern,
  paths: [tree],
  globs: [],
  regex,
  ignore_case: false,
  max_bytes: 1048576,
  follow_symlinks: false,
});

/**
 * search.text from the sources, bundled on the fly (the CLI bundle has no per-command entry), with
 * the built search worker beside it, where the engine looks for it.
 */
async function loadSearch(scratch) {
  const dir = join(scratch, 'search');
  mkdirSync(dir);
  copyFileSync(join(ROOT, 'dist', 'search-worker.cjs'), join(dir, 'search-worker.cjs'));
  const out = join(dir, 'search.mjs');
  await build({
    entryPoints: [join(ROOT, 'src/commands/search/text.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'silent',
  });
  return (await import(pathToFileURL(out).href)).text;
}

async function eventLoopDelay(text, tree) {
  // One batch of four searches gives the histogram ~100 samples, so its p99 is the batch's single
  // worst pause: on this VM one batch read 78.6 ms where twelve in a row read 10.6-24.7. The
  // figure is the median of five batches' p99, and the worst batch is reported beside it.
  const p99s = [];
  for (let batch = 0; batch < EVENT_LOOP_BATCHES; batch += 1) {
    const histogram = monitorEventLoopDelay({ resolution: 5 });
    histogram.enable();
    await Promise.all([
      text.run(args(tree, 'createRequire', false), context()),
      text.run(args(tree, 'use(Effect|State)\\(', true), context()),
      text.run(args(tree, 'function', false), context()),
      text.run(args(tree, 'TODO', false), context()),
    ]);
    histogram.disable();
    p99s.push(histogram.percentile(99) / 1e6);
  }
  return { p99: round(median(p99s), 1), worst: round(Math.max(...p99s), 1), batches: p99s.map((v) => round(v, 1)) };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${await run()}\n`);
  // Idle search workers are unref'd; exit without waiting for the event loop to drain anyway.
  process.exit(0);
}
