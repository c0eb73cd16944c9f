// search text over a large real tree (this repo's node_modules) against ripgrep and grep -rn,
// interleaved, plus the event-loop delay while four searches run in one process.

import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { AH, median, ROOT, round, saveResult, table, timeCommand } from './lib.mjs';

const TREE = process.env.AH_BENCH_TREE ?? join(ROOT, 'node_modules');
const PATTERNS = [
  { name: 'literal', ah: ['createRequire'], rg: ['-F', 'createRequire'], grep: ['-F', 'createRequire'] },
  { name: 'regex', ah: ['use(Effect|State)\\(', '--regex'], rg: ['use(Effect|State)\\('], grep: ['-E', 'use(Effect|State)\\('] },
];

export async function run({ rounds = 5 } = {}) {
  const { rgPath } = await import('@vscode/ripgrep');
  const env = { ...process.env, AH_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'ah-bench-search-')) };
  const text = await loadSearch();
  const rows = [];
  const result = { tree: TREE, rounds, patterns: {} };
  for (const p of PATTERNS) {
    const cases = {
      ah: () => timeCommand(process.execPath, [AH, '--json', 'search', 'text', ...p.ah, TREE, '--max-bytes', '1048576'], { env }),
      // The same search in this process: what the MCP server pays per call (no CLI start-up).
      'ah in-process': async () => {
        const started = process.hrtime.bigint();
        const out = await text.run(args(p.ah[0], p.ah.includes('--regex')), context());
        return { ms: Number(process.hrtime.bigint() - started) / 1e6, count: out.match_count };
      },
      rg: () => timeCommand(rgPath, ['--no-config', '-n', '--max-filesize', '1M', ...p.rg, TREE], { allowFailure: true }),
      'grep -rn': () => timeCommand('grep', ['-rn', ...p.grep, TREE], { allowFailure: true }),
    };
    const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
    const counts = {};
    for (let i = 0; i < rounds; i += 1) {
      for (const [name, fn] of Object.entries(cases)) {
        const { ms, stdout, count } = await fn();
        samples[name].push(ms);
        if (i === 0)
          counts[name] =
            count ?? (name === 'ah' ? JSON.parse(stdout.toString()).match_count : stdout.toString().split('\n').filter(Boolean).length);
      }
    }
    const rg = median(samples.rg);
    for (const name of Object.keys(cases))
      rows.push([p.name, name, counts[name], round(median(samples[name]), 0), round(median(samples[name]) / rg, 2)]);
    result.patterns[p.name] = {
      medians_ms: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, round(median(v), 1)])),
      ratio_vs_rg: round(median(samples.ah) / rg, 2),
      in_process_ratio_vs_rg: round(median(samples['ah in-process']) / rg, 2),
      counts,
      counts_equal: counts.ah === counts.rg && counts['ah in-process'] === counts.rg,
    };
  }
  const delay = await eventLoopDelay(text);
  result.event_loop_p99_ms = delay;
  saveResult('search', result);
  const summary = PATTERNS.map((p) => {
    const r = result.patterns[p.name];
    return `${p.name}: ah ${r.ratio_vs_rg}× rg (in-process ${r.in_process_ratio_vs_rg}×), match counts ${r.counts_equal ? 'equal' : `DIFFER (ah ${r.counts.ah}, rg ${r.counts.rg})`}`;
  }).join('; ');
  return `### search text over ${TREE} (median of ${rounds})\n\n${table(['pattern', 'tool', 'matching lines', 'ms', '× ripgrep'], rows)}\n\n${summary} (target <= 2× rg).\nEvent-loop delay p99 while four searches run in one process: **${delay} ms** (target < 50 ms).\n\`ah\` is the CLI (process start-up and catalog load included), \`ah in-process\` the same call inside a running process (as over MCP). grep counts differ: it ignores .gitignore and hidden-file rules and searches binary and large files.`;
}

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

const args = (pattern, regex) => ({
  pattern,
  paths: [TREE],
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
async function loadSearch() {
  const dir = mkdtempSync(join(tmpdir(), 'ah-bench-eld-'));
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

async function eventLoopDelay(text) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  await Promise.all([
    text.run(args('createRequire', false), context()),
    text.run(args('use(Effect|State)\\(', true), context()),
    text.run(args('function', false), context()),
    text.run(args('TODO', false), context()),
  ]);
  histogram.disable();
  return round(histogram.percentile(99) / 1e6, 1);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${await run()}\n`);
  // Idle search workers are unref'd; exit without waiting for the event loop to drain anyway.
  process.exit(0);
}
