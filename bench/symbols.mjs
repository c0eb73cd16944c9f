// ctx symbols against Universal Ctags: agreement (same name and line) per language on the fixture
// corpus in test/fixtures/ctx/corpus, and time over this repo's node_modules (in-process ctx.symbols
// against `ctags -R`, interleaved). Needs `ctags` (Debian: universal-ctags) on PATH.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * ctags tags that are not definitions a reader would name, left out of the count: names ctags
 * makes up for anonymous functions (AnonymousFunction…), and JavaScript/TypeScript "classes" on a
 * line without `class` or `function` (ctags reports an object literal with members as a class).
 */
function countable(tag, kinds) {
  if (!kinds.includes(tag.kind)) return false;
  if (/^Anonymous(Function|Class|Object)?[0-9a-f]+$/.test(tag.name)) return false;
  if ((tag.language === 'JavaScript' || tag.language === 'TypeScript') && tag.kind === 'class') {
    return /\b(class|function)\b/.test(tag.pattern ?? '');
  }
  return true;
}

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
    const wanted = tags.filter((t) => countable(t, kinds));
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

/**
 * Agreement on real code at scale: every k-th TypeScript/JavaScript file ctx.symbols listed in the
 * tree (files whose symbols all fit the debug cap of 200), against ctags on the same files.
 */
function sampleAgreement(files, scratch, cwd) {
  const eligible = files.filter((f) => /\.(ts|mts|cts|js|mjs|cjs)$/.test(f.path) && !/\.d\.[cm]?ts$/.test(f.path) && f.symbol_count <= 200);
  const step = Math.max(1, Math.floor(eligible.length / 400));
  const sample = eligible.filter((_, i) => i % step === 0).slice(0, 400);
  const list = join(scratch, 'sample.txt');
  writeFileSync(list, `${sample.map((f) => join(cwd, f.path)).join('\n')}\n`);
  const out = execFileSync('ctags', ['--sort=no', '--output-format=json', '--fields=+nKl', '-f', '-', '-L', list], {
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
  const ours = new Map(sample.map((f) => [join(cwd, f.path), new Set(f.symbols.map((s) => `${s.line}\0${s.name}`))]));
  const rows = new Map();
  for (const line of out.split('\n')) {
    if (line === '') continue;
    const t = JSON.parse(line);
    if (t._type !== 'tag' || !countable(t, COUNTED[t.language] ?? [])) continue;
    const row = rows.get(t.language) ?? { files: new Set(), ctags: 0, found: 0 };
    row.files.add(t.path);
    row.ctags += 1;
    if (ours.get(t.path)?.has(`${t.line}\0${t.name}`)) row.found += 1;
    rows.set(t.language, row);
  }
  return rows;
}

async function timing(symbols, tree, cwd, scratch, rounds) {
  const samples = { 'ctx.symbols in-process': [], 'ctags -R': [], 'ctags -L (same files)': [] };
  let scanned = 0;
  let symbolCount = 0;
  let agreementRows = null;
  const list = join(scratch, 'files.txt');
  let listed = 0;
  for (let i = 0; i <= rounds; i += 1) {
    const started = process.hrtime.bigint();
    const result = await symbols.run(symbolArgs(tree), context(cwd));
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (i === 0) {
      scanned = result.file_count;
      symbolCount = result.symbol_count;
      listed = writeFileList(
        list,
        result.files.map((f) => join(cwd, f.path)),
      );
      agreementRows = sampleAgreement(result.files, scratch, cwd);
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
  return { scanned, symbolCount, listed, samples, ctagsMs, agreementRows };
}

/** node_modules in the repo (its .gitignore hides part of it from ctx.symbols) and a hard-linked copy outside any repo. */
function trees(scratch) {
  const list = [{ name: 'node_modules in the repo', path: join(ROOT, 'node_modules'), cwd: ROOT }];
  const copy = join(scratch, 'tree', 'node_modules');
  try {
    mkdirSync(join(scratch, 'tree'), { recursive: true });
    execFileSync('cp', ['-al', join(ROOT, 'node_modules'), copy], { stdio: 'ignore' });
    list.push({ name: 'node_modules outside any repo', path: copy, cwd: join(scratch, 'tree') });
  } catch {
    // Another file system: the in-repo tree alone.
  }
  return list;
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
    const timed = [];
    for (const tree of trees(scratch)) timed.push({ tree, time: await timing(symbols, tree.path, tree.cwd, scratch, rounds) });
    const result = {
      agreement: Object.fromEntries(rows),
      trees: timed.map(({ tree, time }) => ({
        name: tree.name,
        rounds,
        medians_ms: Object.fromEntries(Object.entries(time.samples).map(([k, v]) => [k, round(median(v), 1)])),
        ratio_vs_ctags: round(median(time.samples['ctx.symbols in-process']) / time.ctagsMs, 2),
        files_scanned: time.scanned,
        symbols: time.symbolCount,
        sample_agreement: Object.fromEntries(
          [...time.agreementRows].map(([k, v]) => [k, { files: v.files.size, ctags: v.ctags, found: v.found }]),
        ),
      })),
    };
    saveResult('symbols', result);
    const missed = [...rows.entries()]
      .filter(([language]) => TARGETED.includes(language))
      .flatMap(([, r]) => r.missed.slice(0, 4))
      .map((m) => `- ${m}`)
      .join('\n');
    const sections = [
      '### ctx symbols vs Universal Ctags: agreement on test/fixtures/ctx/corpus',
      '',
      table(
        ['language (ctags)', 'files', 'ctags definitions', 'also found by ctx symbols', 'agreement', 'ctx symbols total', 'target'],
        agreementRows,
      ),
      '',
      'Counted ctags kinds: functions, classes, methods and types (TypeScript also interfaces, enums and aliases; Go funcs, types, structs, interfaces; Rust functions, methods, structs, enums, traits, type aliases, unions); left out: the names ctags makes up for anonymous functions and its JavaScript/TypeScript "classes" on lines without `class` or `function` (object literals). Agreement = same name on the same line.',
      missed === '' ? '' : `\nSome ctags definitions not found:\n${missed}`,
    ];
    for (const { tree, time } of timed) {
      const ours = median(time.samples['ctx.symbols in-process']);
      const timeRows = Object.entries(time.samples).map(([name, values]) => [
        name,
        round(median(values), 0),
        round(median(values) / time.ctagsMs, 2),
      ]);
      const sampleRows = [...time.agreementRows.entries()].map(([language, r]) => [
        language,
        r.files.size,
        r.ctags,
        r.found,
        r.ctags === 0 ? '-' : `${round((100 * r.found) / r.ctags, 1)} %`,
      ]);
      sections.push(
        '',
        `### ctx symbols vs ctags, ${tree.name} (median of ${rounds})`,
        '',
        table(['tool', 'ms', '× ctags -R'], timeRows),
        '',
        `ctx.symbols scanned ${time.scanned} files (its walk honours ignore files, hidden-file rules and the 8 MiB cap; only files of known languages count) and found ${time.symbolCount} symbols in ${round(ours, 0)} ms (${round(ours / time.ctagsMs, 2)}× \`ctags -R\`; target ≤ 1.5×); \`ctags -L\` reads the ${time.listed} of those files that have symbols.`,
        '',
        'Agreement on a sample of the TypeScript/JavaScript files of this tree (same counted kinds):',
        '',
        table(['language (ctags)', 'files', 'ctags definitions', 'also found', 'agreement'], sampleRows),
      );
    }
    return sections.join('\n');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rounds = Number(process.env.AH_BENCH_ROUNDS ?? 3);
  process.stdout.write(`${await run({ rounds })}\n`);
}
