import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { call } from '../../../test/helpers/git.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { extractSymbols } from './extract.js';
import { languageOf } from './languages.js';
import { symbols } from './symbols.js';

const FIXTURES = join(import.meta.dirname, '../../../test/fixtures/ctx');
const CORPUS = join(FIXTURES, 'corpus');

function corpusFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? corpusFiles(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

const show = (path: string) => extractSymbols(path, readFileSync(path, 'utf8')).map((s) => `${s.line} ${s.kind} ${s.name}`);

describe('symbol extraction', () => {
  // Golden outputs for the corpus: real files from node_modules (TypeScript, JavaScript, JSON, YAML,
  // Markdown) and hand-written ones for the other languages. bench/symbols.mjs measures the same
  // files against Universal Ctags.
  const golden = JSON.parse(readFileSync(join(FIXTURES, 'golden.json'), 'utf8')) as Record<string, string[]>;
  it('covers every corpus file with a golden output', () => {
    expect(corpusFiles(CORPUS).map((f) => relative(CORPUS, f))).toEqual(Object.keys(golden).sort());
  });
  it.each(corpusFiles(CORPUS).map((f) => [relative(CORPUS, f), f] as const))('%s matches its golden symbols', (name, path) => {
    expect(languageOf(path), name).toBeDefined();
    expect(show(path)).toEqual(golden[name]);
  });

  it('tells Python methods from functions by indentation and keeps nested classes', () => {
    const found = show(join(CORPUS, 'python/inventory.py'));
    expect(found).toContain('35 class Stock');
    expect(found).toContain('39 method add');
    expect(found).toContain('53 method refresh');
    expect(found).toContain('60 class Snapshot');
    expect(found).toContain('78 function fetch_levels');
  });

  it('finds Go types declared in a type ( … ) group but not the struct fields inside them', () => {
    const found = show(join(CORPUS, 'go/server.go'));
    expect(found).toEqual(expect.arrayContaining(['30 type Option', '32 struct Stats', '37 interface Reader', '102 method Swap']));
    expect(found.some((s) => s.endsWith(' Reads') || s.endsWith(' Writes'))).toBe(false);
  });

  it('reads Rust items with visibility, async, unsafe and extern qualifiers', () => {
    const found = show(join(CORPUS, 'rust/lib.rs'));
    expect(found).toEqual(
      expect.arrayContaining([
        '36 trait Handler',
        '54 method new',
        '74 method drain',
        '99 macro event',
        '105 module util',
        '110 method raw_bits',
        '131 function callback',
        '28 type Result',
        '23 union Bits',
      ]),
    );
  });

  it('keeps Markdown headings outside fenced code only, and JSON keys of the top level only', () => {
    expect(extractSymbols('a.md', '# Title\n\n```sh\n# not a heading\n```\n## Part ##\n')).toEqual([
      { kind: 'heading', line: 1, name: 'Title' },
      { kind: 'heading', line: 6, name: 'Part' },
    ]);
    expect(extractSymbols('a.json', '{\n  "a": {"inner": 1},\n  "b\\"q": [ {"deep": 2} ]\n}\n')).toEqual([
      { kind: 'key', line: 2, name: 'a' },
      { kind: 'key', line: 3, name: 'b"q' },
    ]);
  });

  it('does not take control flow for methods', () => {
    const text = 'class A {\n  run() {\n    if (x) {\n    }\n    for (const y of z) {\n    }\n  }\n}\n';
    expect(extractSymbols('a.ts', text).map((s) => s.name)).toEqual(['A', 'run']);
  });

  it('finds JavaScript definitions in bundled and minified shapes', () => {
    const text = [
      'app.use = function use(fn) {};',
      'var a=1,check=function(){};exports.isX=function(b){return b};',
      'module.exports = class Queue extends Base {',
      'class K{constructor(e){this.e=e}digest(){return 1}static of(x){if(x){}}}',
      'const o = { [Symbol.iterator]: function () {}, run: async function run() {} };',
      '  async #pump(opts) {',
    ].join('\n');
    expect(extractSymbols('bundle.js', text).map((s) => `${s.line} ${s.name}`)).toEqual([
      '1 use',
      '2 check',
      '2 isX',
      '3 Queue',
      '4 K',
      '4 constructor',
      '4 digest',
      '4 of',
      '5 [Symbol.iterator]',
      '5 run',
      '6 pump',
    ]);
  });

  it('finds nothing in files of unknown languages', () => {
    expect(languageOf('notes.txt')).toBeUndefined();
    expect(extractSymbols('notes.txt', 'function f() {}\n')).toEqual([]);
  });
});

describe('ctx.symbols', () => {
  it('scans a directory with the ignore rules, caps the files, and counts skips', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'a.ts'), 'export function a() {}\n');
    writeFileSync(join(dir, 'src', 'b.py'), 'def b():\n    pass\n');
    writeFileSync(join(dir, 'src', 'c.go'), 'package c\n');
    writeFileSync(join(dir, 'src', 'skip.ts'), 'export function hidden() {}\n');
    writeFileSync(join(dir, '.ignore'), 'skip.ts\n');
    writeFileSync(join(dir, 'src', 'bin.js'), Buffer.from([0x66, 0x00, 0x01]));
    writeFileSync(join(dir, 'src', 'big.rs'), `fn big() {}\n${'x'.repeat(200)}\n`);
    writeFileSync(join(dir, 'notes.txt'), 'function not_code() {}\n');
    symlinkSync(join(dir, 'src', 'a.ts'), join(dir, 'src', 'link.ts'));
    const out = await call(symbols, { path: '.', max_bytes: 100 }, testContext({ cwd: dir }));
    expect(out).toEqual({
      command: 'ctx.symbols',
      preset: 'review',
      root: '.',
      file_count: 3,
      symbol_count: 2,
      skipped_binary_files: 1,
      skipped_large_files: 1,
      skipped_symlink_files: 1,
      truncated: false,
      files: [
        { path: 'src/a.ts', symbol_count: 1, symbols: [{ kind: 'function', line: 1, name: 'a' }] },
        { path: 'src/b.py', symbol_count: 1, symbols: [{ kind: 'function', line: 1, name: 'b' }] },
      ],
    });
    const capped = await call(symbols, { path: 'src' }, testContext({ cwd: dir, limit: 1 }));
    expect(capped).toMatchObject({ file_count: 1, truncated: true, files: [{ path: 'src/a.ts' }] });
    expect(symbols.render?.(capped)).toBe('src/a.ts (1)\n      1 function a\n1 symbols in 1 files, 1 skipped [truncated]');
  });

  it('takes a single file, cuts symbols to the preset per-file count, and refuses a missing path', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'many.py'), Array.from({ length: 30 }, (_, i) => `def f${i}():\n    pass\n`).join(''));
    const out = await call(symbols, { path: 'many.py', preset: 'summary' }, testContext({ cwd: dir }));
    expect(out.files[0]?.symbol_count).toBe(30);
    expect(out.files[0]?.symbols).toHaveLength(20);
    await expect(call(symbols, { path: 'nope' }, testContext({ cwd: dir }))).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' });
  });

  it('walks a tree larger than one walk budget in order, without repeats', async () => {
    const dir = tempDir();
    const names: string[] = [];
    for (let d = 0; d < 30; d += 1) {
      mkdirSync(join(dir, `d${String(d).padStart(2, '0')}`));
      for (let f = 0; f < 30; f += 1) {
        const rel = `d${String(d).padStart(2, '0')}/f${String(f).padStart(2, '0')}.py`;
        writeFileSync(join(dir, rel), `def f${d}_${f}():\n    pass\n`);
        names.push(rel);
      }
    }
    const out = await call(symbols, { path: '.' }, testContext({ cwd: dir, limit: 10_000 }));
    expect(out.files.map((f) => f.path)).toEqual(names);
  });

  it('stops when the call is cancelled', async () => {
    const dir = tempDir();
    for (let i = 0; i < 40; i += 1) writeFileSync(join(dir, `f${i}.py`), 'def f():\n    pass\n');
    const ctx = testContext({ cwd: dir });
    ctx.controller.abort(new Error('cancelled by the test'));
    await expect(symbols.run({ path: '.', preset: 'review', max_bytes: 1024, follow_symlinks: false }, ctx)).rejects.toThrow(
      'cancelled by the test',
    );
  });
});
