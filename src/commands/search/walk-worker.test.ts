import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../catalog/schema.js';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { compileGlobs } from './roots.js';
import { walkBatchesOffThread, WalkerPool } from './walk-worker.js';
import { text } from './text.js';
import { walkBatches, type WalkedFile, type WalkOptions } from './walker.js';

function write(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** A tree with nested ignore files, negations, hidden entries and symlinks (a loop included). */
function fixture(git: boolean): string {
  const root = tempDir();
  if (git) mkdirSync(join(root, '.git', 'info'), { recursive: true });
  if (git) writeFileSync(join(root, '.git', 'info', 'exclude'), 'excluded.txt\n');
  write(root, {
    '.gitignore': '*.log\nbuild/\n!keep.log\n/top-only.txt\n',
    '.ignore': 'ignored-by-dot-ignore/\n',
    'a.txt': 'a',
    'b.log': 'b',
    'keep.log': 'k',
    'excluded.txt': 'e',
    'top-only.txt': 't',
    '.hidden': 'h',
    '.hiddendir/x.txt': 'x',
    'build/out.txt': 'o',
    'ignored-by-dot-ignore/y.txt': 'y',
    'src/top-only.txt': 't',
    'src/main.ts': 'm',
    'src/z.log': 'z',
    'src/.gitignore': '!z.log\nsecret/\n',
    'src/secret/s.txt': 's',
    'src/nested/.ignore': '*.tmp\n!important.tmp\n',
    'src/nested/a.tmp': 'a',
    'src/nested/important.tmp': 'i',
    'src/nested/deep/.rgignore': 'drop-me\n',
    'src/nested/deep/drop-me': 'd',
    'src/nested/deep/keep-me': 'k',
    'Zeta/upper.txt': 'u',
    'lib/one.js': '1',
    'lib/two.js': '2',
  });
  for (let i = 0; i < 60; i += 1) writeFileSync(join(root, 'lib', `f${String(i).padStart(2, '0')}.js`), `${i}`);
  symlinkSync(join(root, 'a.txt'), join(root, 'link-file.txt'));
  symlinkSync(join(root, 'lib'), join(root, 'link-dir'));
  symlinkSync(join(root, 'missing'), join(root, 'broken-link'));
  symlinkSync(root, join(root, 'src', 'loop'));
  symlinkSync(join(root, 'a.txt'), join(root, '.hidden-link'));
  return root;
}

async function collect(gen: AsyncGenerator<WalkedFile[]>): Promise<WalkedFile[]> {
  const out: WalkedFile[] = [];
  for await (const batch of gen) out.push(...batch);
  return out;
}

const options = (followSymlinks: boolean, accept?: (path: string) => boolean): WalkOptions => ({
  followSymlinks,
  env: { HOME: '/nonexistent-home' },
  signal: new AbortController().signal,
  ...(accept ? { accept } : {}),
});

describe('off-thread walk', () => {
  const pool = new WalkerPool();
  afterAll(() => pool.close());

  for (const git of [true, false]) {
    for (const follow of [false, true]) {
      for (const globs of [[], ['*.ts', '*.txt', '!**/upper.txt']]) {
        it(`equals the main-thread walk (git ${git}, follow ${follow}, globs ${globs.length})`, async () => {
          const root = fixture(git);
          const accept = compileGlobs(globs);
          const mainCounters = { skippedSymlinks: 0 };
          const offCounters = { skippedSymlinks: 0 };
          const expected = await collect(walkBatches(root, options(follow, accept), mainCounters));
          const actual = await collect(walkBatchesOffThread(root, options(follow, accept), offCounters, pool));
          expect(actual).toEqual(expected);
          expect(offCounters).toEqual(mainCounters);
          expect(pool.failureCount).toBe(0);
          expect(expected.length).toBeGreaterThanOrEqual(globs.length > 0 ? 3 : 60);
          if (!follow) expect(mainCounters.skippedSymlinks).toBe(4);
          if (git && !follow && globs.length === 0) {
            const paths = actual.map((f) => f.relative);
            expect(paths).toEqual(expect.arrayContaining(['keep.log', 'src/z.log', 'src/nested/important.tmp', 'src/nested/deep/keep-me']));
            for (const gone of [
              'b.log',
              'excluded.txt',
              'top-only.txt',
              '.hidden',
              'build/out.txt',
              'src/secret/s.txt',
              'src/nested/a.tmp',
            ])
              expect(paths).not.toContain(gone);
            expect(paths).toContain('src/top-only.txt');
          }
        });
      }
    }
  }

  it('stops promptly when the signal aborts mid-walk, and the worker is reused', async () => {
    const root = tempDir();
    for (let d = 0; d < 120; d += 1) write(root, Object.fromEntries(Array.from({ length: 30 }, (_, f) => [`d${d}/f${f}.txt`, 'x'])));
    const controller = new AbortController();
    const gen = walkBatchesOffThread(root, { ...options(false), signal: controller.signal }, { skippedSymlinks: 0 }, pool);
    const first = await gen.next();
    expect(first.done).toBe(false);
    const started = performance.now();
    controller.abort(new Error('stop walking'));
    await expect(gen.next()).rejects.toThrow('stop walking');
    expect(performance.now() - started).toBeLessThan(500);
    // The pool still works afterwards.
    const small = fixture(true);
    const again = await collect(walkBatchesOffThread(small, options(false), { skippedSymlinks: 0 }, pool));
    expect(again).toEqual(await collect(walkBatches(small, options(false), { skippedSymlinks: 0 })));
    expect(pool.failureCount).toBe(0);
  });

  it('stops the worker when the caller returns early', async () => {
    const root = fixture(true);
    const gen = walkBatchesOffThread(root, options(false), { skippedSymlinks: 0 }, pool);
    await gen.next();
    await gen.return(undefined);
    const again = await collect(walkBatchesOffThread(root, options(false), { skippedSymlinks: 0 }, pool));
    expect(again.length).toBeGreaterThan(60);
  });

  it('continues on the main thread when a worker fails mid-walk', async () => {
    const root = fixture(true);
    const accept = compileGlobs(['*.js']);
    const expected = await collect(walkBatches(root, options(false, accept), { skippedSymlinks: 0 }));
    const all = await collect(walkBatches(root, options(false), { skippedSymlinks: 0 }));
    // A worker that delivers the first 10 files, then dies.
    const head = all.slice(0, 10);
    const source = `require('node:worker_threads').parentPort.on('message', () => {
      require('node:worker_threads').parentPort.postMessage({ type: 'batch', absolute: ${JSON.stringify(head.map((f) => f.absolute))}, relative: ${JSON.stringify(head.map((f) => f.relative))} });
      setTimeout(() => process.exit(3), 20);
    });`;
    class Failing extends WalkerPool {
      override acquire(): Worker | null {
        return new Worker(source, { eval: true });
      }
    }
    const failing = new Failing();
    const counters = { skippedSymlinks: 0 };
    const actual = await collect(walkBatchesOffThread(root, options(false, accept), counters, failing));
    expect(actual).toEqual(expected);
    expect(counters.skippedSymlinks).toBe(4);
    expect(failing.failureCount).toBe(1);
  });

  it('walks on the main thread when no worker can start', async () => {
    const root = fixture(false);
    class Broken extends WalkerPool {
      override acquire(): Worker | null {
        return new Worker('throw new Error("no walk")', { eval: true });
      }
    }
    const broken = new Broken();
    const expected = await collect(walkBatches(root, options(false), { skippedSymlinks: 0 }));
    expect(await collect(walkBatchesOffThread(root, options(false), { skippedSymlinks: 0 }, broken))).toEqual(expected);
    expect(broken.failureCount).toBe(1);
  });
});

function withDefaults(args: Record<string, unknown>): Record<string, unknown> {
  const input = structuredClone(args);
  compile(text.inputSchema)(input);
  return input;
}

describe('search.text with the off-thread walk', () => {
  it('returns exactly what the main-thread walk returns (order, counters, truncation)', async () => {
    const root = fixture(true);
    for (let i = 0; i < 40; i += 1) writeFileSync(join(root, 'src', `needle${i}.ts`), `needle ${i}\nno\nneedle again\n`);
    writeFileSync(join(root, 'src', 'bin.dat'), Buffer.from([0, 110, 101, 101, 100, 108, 101]));
    for (const args of [
      { pattern: 'needle' },
      { pattern: 'ne+dle', regex: true, globs: ['*.ts', '!src/needle1*'] },
      { pattern: 'NEEDLE', ignore_case: true, context_lines: 1 },
      { pattern: 'needle', follow_symlinks: true },
    ]) {
      for (const limit of [null, 7]) {
        const run = (env: Record<string, string | undefined>) =>
          text.run(withDefaults(args) as never, testContext({ cwd: root, limit, env: { PATH: process.env.PATH, ...env } }));
        const onMain = await run({ AH_SEARCH_WALK_WORKER: '0' });
        const offThread = await run({});
        expect(offThread).toEqual(onMain);
        expect(onMain.match_count).toBeGreaterThan(0);
      }
    }
  });

  it('stops promptly when the caller aborts mid-search', async () => {
    const root = tempDir();
    for (let d = 0; d < 60; d += 1)
      write(root, Object.fromEntries(Array.from({ length: 40 }, (_, f) => [`d${d}/f${f}.txt`, 'needle\n'.repeat(200)])));
    const ctx = testContext({ cwd: root });
    const running = text.run(withDefaults({ pattern: 'needle' }) as never, ctx);
    setTimeout(() => ctx.controller.abort(new Error('caller gave up')), 5);
    const started = performance.now();
    await expect(running).rejects.toThrow('caller gave up');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
