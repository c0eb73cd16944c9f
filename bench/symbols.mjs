// ctx symbols against Universal Ctags: agreement (same name and line) per language on the fixture
// corpus in test/fixtures/ctx/corpus, and time over this repo's node_modules (in-process ctx.symbols
// against `ctags -R`, interleaved). Needs `ctags` (Debian: universal-ctags) on PATH.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { median, ROOT, round, saveResult, table } from './lib.mjs';

const CORPUS = join(ROOT, 'test', 'fixtures', 'ctx', 'corpus');

/**
 * The ctags kinds that count as "function, class, method and type definitions" per language;
 * variables, constants, properties, fields and imports are not counted. Languages not listed use
 * DEFAULT_KINDS.
 */
const COUNTED = {
  TypeScript: ['function', 'class', 'method', 'interface', 'enum', 'alias', 'generator'],
  JavaScript: ['function', 'class', 'method', 'generator', 'getter', 'setter'],
  Python: ['class', 'function', 'member'],
  Go: ['func', 'type', 'struct', 'interface', 'talias'],
  Rust: ['function', 'method', 'struct', 'enum', 'interface', 'typedef', 'union'],
};
const DEFAULT_KINDS = [
  'function',
  'method',
  'class',
  'struct',
  'interface',
  'enum',
  'module',
  'namespace',
  'trait',
  'typedef',
  'type',
  'object',
  'subroutine',
  'package',
  'record',
  'section',
  'chapter',
  'subsection',
  'target',
  'singletonMethod',
];
const TARGETED = ['TypeScript', 'JavaScript', 'Python', 'Go', 'Rust'];

function ctagsAvailable() {
  return spawnSync('ctags', ['--version'], { stdio: 'ignore' }).status === 0;
}

function ctagsTags(file) {
  const out = execFileSync('ctags', ['--output-format=json', '--fields=+nKl', '-f', '-', file], {
    maxBuffer: 1 << 28,
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((t) => t._type === 'tag');
}

function corpusFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...corpusFiles(path));
    else if (entry.isFile()) files.push(path);
  }
  return files.sort();
}

const context = (cwd) => ({
  cwd,
  limit: 1_000_000,
  signal: new AbortController().signal,
  deadline: Number.POSITIVE_INFINITY,
  env: process.env,
  credentials: {},
  notice() {},
  progress() {},
  transport: 'mcp',
});

const symbolArgs = (path) => ({ path, preset: 'debug', max_bytes: 8 * 1024 * 1024, follow_symlinks: false });

async function loadSymbols(scratch) {
  const out = join(scratch, 'ctx-symbols.mjs');
  await build({
    entryPoints: [join(ROOT, 'src/commands/ctx/symbols.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'silent',
  });
  return (await import(pathToFileURL(out).href)).symbols;
}

async function agreement(symbols) {
  const perLanguage = new Map();
  for (const file of corpusFiles(CORPUS)) {
    const tags = ctagsTags(file);
    const language = tags[0]?.language;
    if (!language) continue;
    const kinds = COUNTED[language] ?? DEFAULT_KINDS;
    const wanted = tags.filter((t) => kinds.includes(t.kind));
    const result = await symbols.run(symbolArgs(file), context(CORPUS));
    const ours = new Set((result.files[0]?.symbols ?? []).map((s) => `${s.line}\0${s.name}`));
    const row = perLanguage.get(language) ?? { files: 0, ctags: 0, found: 0, ours: 0, missed: [] };
    row.files += 1;
    row.ctags += wanted.length;
    row.ours += ours.size;
    for (const t of wanted) {
      if (ours.has(`${t.line}\0${t.name}`)) row.found += 1;
      else if (row.missed.length < 12) row.missed.push(`${relative(CORPUS, file)}:${t.line} ${t.kind} ${t.name}`);
    }
    perLanguage.set(language, row);
  }
  return perLanguage;
}

/** Files of the tree that ctx symbols scans (its walk and language table), for ctags -L. */
function writeFileList(list, files) {
  writeFileSync(list, `${files.join('\n')}\n`);
  return files.length;
}

async function timing(symbols, scratch, rounds) {
  const tree = join(ROOT, 'node_modules');
  const samples = { 'ctx.symbols in-process': [], 'ctags -R': [], 'ctags -L (same files)': [] };
  let scanned = 0;
  let symbolCount = 0;
  const list = join(scratch, 'files.txt');
  let listed = 0;
  for (let i = 0; i <= rounds; i += 1) {
    const started = process.hrtime.bigint();
    const result = await symbols.run(symbolArgs(tree), context(ROOT));
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (i === 0) {
      scanned = result.file_count;
      symbolCount = result.symbol_count;
      listed = writeFileList(
        list,
        result.files.map((f) => join(ROOT, f.path)),
      );
    } else samples['ctx.symbols in-process'].push(ms);
    for (const [name, args] of [
      ['ctags -R', ['-R', '--sort=no', '--output-format=json', '--fields=+n', '-f', '/dev/null', tree]],
      ['ctags -L (same files)', ['--sort=no', '--output-format=json', '--fields=+n', '-f', '/dev/null', '-L', list]],
    ]) {
      const t0 = process.hrtime.bigint();
      spawnSync('ctags', args, { stdio: 'ignore' });
      if (i > 0) samples[name].push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  const ctagsMs = median(samples['ctags -R']);
  return { scanned, symbolCount, listed, samples, ctagsMs };
}

export async function run({ rounds = 3 } = {}) {
  if (!ctagsAvailable())
    return '### ctx symbols vs Universal Ctags\n\nskipped: `ctags` is not installed (apt-get install universal-ctags).';
  const scratch = mkdtempSync(join(tmpdir(), 'ah-bench-symbols-'));
  try {
    const symbols = await loadSymbols(scratch);
    const rows = await agreement(symbols);
    const agreementRows = [...rows.entries()]
      .sort((a, b) => TARGETED.includes(b[0]) - TARGETED.includes(a[0]) || a[0].localeCompare(b[0]))
      .map(([language, r]) => [
        language,
        r.files,
        r.ctags,
        r.found,
        r.ctags === 0 ? '-' : `${round((100 * r.found) / r.ctags, 1)} %`,
        r.ours,
        TARGETED.includes(language) ? '≥ 90 %' : '',
      ]);
    if (process.env.AH_BENCH_SYMBOLS_AGREEMENT_ONLY) {
      return JSON.stringify(Object.fromEntries(rows), null, 1);
    }
    const time = await timing(symbols, scratch, rounds);
    const ours = median(time.samples['ctx.symbols in-process']);
    const timeRows = Object.entries(time.samples).map(([name, values]) => [
      name,
      round(median(values), 0),
      round(median(values) / time.ctagsMs, 2),
    ]);
    const result = {
      agreement: Object.fromEntries(rows),
      timing: {
        rounds,
        medians_ms: Object.fromEntries(Object.entries(time.samples).map(([k, v]) => [k, round(median(v), 1)])),
        ratio_vs_ctags: round(ours / time.ctagsMs, 2),
        files_scanned: time.scanned,
        symbols: time.symbolCount,
      },
    };
    saveResult('symbols', result);
    const missed = [...rows.entries()]
      .filter(([language]) => TARGETED.includes(language))
      .flatMap(([, r]) => r.missed.slice(0, 4))
      .map((m) => `- ${m}`)
      .join('\n');
    return [
      '### ctx symbols vs Universal Ctags: agreement on test/fixtures/ctx/corpus',
      '',
      table(
        ['language (ctags)', 'files', 'ctags definitions', 'also found by ctx symbols', 'agreement', 'ctx symbols total', 'target'],
        agreementRows,
      ),
      '',
      'Counted ctags kinds: functions, classes, methods and types (TypeScript also interfaces, enums and aliases; Go funcs, types, structs, interfaces; Rust functions, methods, structs, enums, traits, type aliases, unions). Agreement = same name on the same line.',
      missed === '' ? '' : `\nSome ctags definitions not found:\n${missed}`,
      '',
      `### ctx symbols vs ctags over node_modules (median of ${rounds})`,
      '',
      table(['tool', 'ms', '× ctags -R'], timeRows),
      '',
      `ctx.symbols scanned ${time.scanned} files (its walk honours the repository's .gitignore, and only files of known languages count) and found ${time.symbolCount} symbols; \`ctags -L\` reads the ${time.listed} of those files that have symbols. Target: in-process ≤ 1.5× \`ctags -R\`.`,
    ].join('\n');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rounds = Number(process.env.AH_BENCH_ROUNDS ?? 3);
  process.stdout.write(`${await run({ rounds })}\n`);
}
