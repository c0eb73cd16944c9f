// search text over a large real tree (this repo's node_modules) against ripgrep and grep -rn,
// interleaved, plus the event-loop delay while four searches run in one process.

import { mkdtempSync } from 'node:fs';
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
  const rows = [];
  const result = { tree: TREE, rounds, patterns: {} };
  for (const p of PATTERNS) {
    const cases = {
      ah: () => timeCommand(process.execPath, [AH, '--json', 'search', 'text', ...p.ah, TREE, '--max-bytes', '1048576'], { env }),
      rg: () => timeCommand(rgPath, ['--no-config', '-n', '--max-filesize', '1M', ...p.rg, TREE], { allowFailure: true }),
      'grep -rn': () => timeCommand('grep', ['-rn', ...p.grep, TREE], { allowFailure: true }),
    };
    const samples = { ah: [], rg: [], 'grep -rn': [] };
    const counts = {};
    for (let i = 0; i < rounds; i += 1) {
      for (const [name, fn] of Object.entries(cases)) {
        const { ms, stdout } = fn();
        samples[name].push(ms);
        if (i === 0)
          counts[name] = name === 'ah' ? JSON.parse(stdout.toString()).match_count : stdout.toString().split('\n').filter(Boolean).length;
      }
    }
    const rg = median(samples.rg);
    for (const name of Object.keys(cases))
      rows.push([p.name, name, counts[name], round(median(samples[name]), 0), round(median(samples[name]) / rg, 2)]);
    result.patterns[p.name] = { medians_ms: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, round(median(v), 1)])), counts };
  }
  const delay = await eventLoopDelay();
  result.event_loop_p99_ms = delay;
  saveResult('search', result);
  return `### search text over ${TREE} (median of ${rounds})\n\n${table(['pattern', 'tool', 'matching lines', 'ms', '× ripgrep'], rows)}\n\nEvent-loop delay p99 while four searches run in one process: **${delay} ms** (target < 50 ms).\nCounts can differ slightly: ah skips non-UTF-8 files, ripgrep and grep search them as bytes (grep also ignores .gitignore and hidden-file rules).`;
}

async function eventLoopDelay() {
  const out = join(mkdtempSync(join(tmpdir(), 'ah-bench-eld-')), 'search.mjs');
  await build({
    entryPoints: [join(ROOT, 'src/commands/search/text.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'silent',
  });
  const { text } = await import(pathToFileURL(out).href);
  const ctx = {
    cwd: ROOT,
    limit: null,
    signal: new AbortController().signal,
    deadline: Number.POSITIVE_INFINITY,
    env: process.env,
    credentials: {},
    notice() {},
    progress() {},
    transport: 'cli',
  };
  const args = (pattern, regex) => ({
    pattern,
    paths: [TREE],
    globs: [],
    regex,
    ignore_case: false,
    max_bytes: 1048576,
    follow_symlinks: false,
  });
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  await Promise.all([
    text.run(args('createRequire', false), ctx),
    text.run(args('use(Effect|State)\\(', true), ctx),
    text.run(args('function', false), ctx),
    text.run(args('TODO', false), ctx),
  ]);
  histogram.disable();
  return round(histogram.percentile(99) / 1e6, 1);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) process.stdout.write(`${await run()}\n`);
