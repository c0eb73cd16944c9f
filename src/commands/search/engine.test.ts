import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { AhError } from '../../errors.js';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testContext, withDefaults } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { planSearch, type UnitResult } from './engine.js';
import { createSpec } from './matcher.js';
import { runInterruptible } from './interruptible.js';
import { cliJoinAfterMs, runJob, SearchWorkers } from './parallel.js';
import { HITS, NEXT } from './protocol.js';
import { resolveRoots } from './roots.js';
import { text } from './text.js';
import { files as filesCommand } from './files.js';

/**
 * What a walk of the fixture must visit, in order, per configuration (recorded from the walk that
 * was checked against ripgrep, and kept as the reference for every way the engine runs).
 */
const EXPECTED = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../test/fixtures/search-walk.json'), 'utf8')) as Record<
  string,
  { files: string[]; symlinks: number }
>;

/** The worker program the build writes (npm test builds before the suite runs). */
const WORKER = resolve(import.meta.dirname, '../../../dist/search-worker.cjs');

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

/** Every file the engine visits, in order: a regex that matches any first character. */
async function engineFiles(
  root: string,
  follow: boolean,
  globs: string[],
  run: { participate: boolean; workers: number; pool?: SearchWorkers },
): Promise<{ files: string[]; symlinks: number }> {
  const spec = createSpec('^[\\s\\S]', { regex: true, ignoreCase: false, maxBytes: 1 << 20, context: 0, maxHits: 1 });
  const roots = await resolveRoots(root, []);
  const plan = planSearch(roots, {
    cwd: root,
    spec: { ...spec, maxHits: Number.POSITIVE_INFINITY },
    globs,
    followSymlinks: follow,
    env: { HOME: '/nonexistent-home' },
  });
  const results: UnitResult[] = await runJob(plan.job, { ...run, budget: Number.POSITIVE_INFINITY, signal: new AbortController().signal });
  return {
    // One entry per file (a file's hits are consecutive).
    files: results.flatMap((u) => u.matches.map((m) => m.path)).filter((path, i, all) => i === 0 || all[i - 1] !== path),
    symlinks: plan.symlinks + results.reduce((n, u) => n + u.symlinks, 0),
  };
}

describe('the CLI worker join time', () => {
  const spec = (regex: boolean) =>
    createSpec('use(Effect|State)', { regex, ignoreCase: false, maxBytes: 1 << 20, context: 0, maxHits: 10 });
  it('lets workers join a regex search early: its matching costs CPU on every byte', () => {
    expect(spec(true).literal).toBeNull();
    expect(cliJoinAfterMs({ mode: 'text', spec: spec(true) })).toBe(40);
  });
  it('keeps a literal or file-name search on the calling thread for longer: a worker costs it more than it gains', () => {
    expect(spec(false).literal).toBe('use(Effect|State)');
    expect(cliJoinAfterMs({ mode: 'text', spec: spec(false) })).toBe(200);
    expect(cliJoinAfterMs({ mode: 'files', spec: spec(true) })).toBe(200);
  });
});

describe('search engine', () => {
  const pool = new SearchWorkers(2, WORKER);
  afterAll(() => pool.close());

  it('has its worker program built', () => {
    expect(existsSync(WORKER)).toBe(true);
  });

  for (const git of [true, false]) {
    for (const follow of [false, true]) {
      for (const globs of [[], ['*.ts', '*.txt', '!**/upper.txt']]) {
        it(`visits the expected files in order (git ${git}, follow ${follow}, globs ${globs.length})`, async () => {
          const root = fixture(git);
          const reference = EXPECTED[`git=${git} follow=${follow} globs=${globs.length}`];
          if (!reference) throw new Error('no expected walk for this configuration');
          const expected = reference.files;
          const counters = { skippedSymlinks: reference.symlinks };
          for (const run of [
            { participate: true, workers: 0 },
            { participate: false, workers: 2, pool },
            { participate: true, workers: 1, pool },
          ]) {
            const actual = await engineFiles(root, follow, globs, run);
            expect(actual.files).toEqual(expected);
            expect(actual.symlinks).toBe(counters.skippedSymlinks);
          }
          expect(pool.failureCount).toBe(0);
          expect(expected.length).toBeGreaterThanOrEqual(globs.length > 0 ? 3 : 60);
          if (!follow) expect(counters.skippedSymlinks).toBe(4);
          if (git && !follow && globs.length === 0) {
            const paths = expected;
            // search files sees the same files (its query matches every path).
            const listed = await filesCommand.run(
              { query: '', paths: [], follow_symlinks: false } as never,
              testContext({ cwd: root, env: { HOME: '/nonexistent-home' } }),
            );
            expect(listed.files).toEqual(paths);
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

  it('tests the entries of a directory a later layer takes back on their own, as ripgrep does', async () => {
    // Checked against ripgrep 15: `rg --no-config -l hit` lists exactly these files.
    const root = tempDir();
    mkdirSync(join(root, '.git'));
    write(root, {
      '.gitignore': 'build/\nbuild/drop.txt\nsub/\ngen/\n',
      '.ignore': '!build/\n',
      'build/keep.txt': 'hit',
      'build/drop.txt': 'hit',
      'build/sub/x.txt': 'hit',
      'src/.ignore': '!gen/\n',
      'src/gen/y.txt': 'hit',
      'src/gen/deeper/z.txt': 'hit',
      'src/a.txt': 'hit',
    });
    const expected = ['build/keep.txt', 'src/a.txt', 'src/gen/deeper/z.txt', 'src/gen/y.txt'];
    for (const run of [
      { participate: true, workers: 0 },
      { participate: false, workers: 2, pool },
    ]) {
      expect((await engineFiles(root, false, [], run)).files).toEqual(expected);
    }
    // A root under a directory its parent's rules ignore: searched, and the rules still apply inside.
    const inner = await engineFiles(join(root, 'build'), false, [], { participate: true, workers: 0 });
    expect(inner.files).toEqual(['keep.txt']);
  });

  it('finishes the units of a worker that dies, on the calling thread', async () => {
    const root = fixture(true);
    const expected = (await engineFiles(root, false, [], { participate: true, workers: 0 })).files;
    const dir = tempDir();
    writeFileSync(join(dir, 'dies.cjs'), "require('node:worker_threads').parentPort.on('message', () => process.exit(3));\n");
    const dying = new SearchWorkers(2, join(dir, 'dies.cjs'));
    expect((await engineFiles(root, false, [], { participate: false, workers: 2, pool: dying })).files).toEqual(expected);
    expect(dying.failureCount).toBe(2);
    writeFileSync(join(dir, 'broken.cjs'), "throw new Error('no search here');\n");
    const broken = new SearchWorkers(1, join(dir, 'broken.cjs'));
    expect((await engineFiles(root, false, [], { participate: false, workers: 1, pool: broken })).files).toEqual(expected);
    expect(broken.failureCount).toBe(1);
  });

  it('claims and finishes no unit after the signal aborts, beyond the one each worker is inside', async () => {
    const root = tempDir();
    for (let d = 0; d < 60; d += 1)
      write(root, Object.fromEntries(Array.from({ length: 40 }, (_, f) => [`d${d}/f${f}.txt`, 'x\n'.repeat(2000)])));
    const spec = createSpec('x', { regex: false, ignoreCase: false, maxBytes: 1 << 20, context: 0, maxHits: Number.POSITIVE_INFINITY });
    const plan = planSearch(await resolveRoots(root, []), { cwd: root, spec, globs: [], followSymlinks: false, env: {} });
    const controller = new AbortController();
    // The job's control words as the workers left them when the abort was sent (checked by work,
    // not by time: a loaded machine delays every thread alike).
    let control: Int32Array | null = null;
    let atAbort: { claimed: number; done: number } | null = null;
    const done = (words: Int32Array) => plan.job.units.filter((_, i) => Atomics.load(words, HITS + i) >= 0).length;
    const watched = {
      submit: (...[job, words, count, handlers]: Parameters<SearchWorkers['submit']>) => {
        control = words;
        return pool.submit(job, words, count, {
          message: (message) => {
            // The first unit a worker finishes: stop the job while the others are still running.
            if ('result' in message && atAbort === null) {
              atAbort = { claimed: Atomics.load(words, NEXT), done: done(words) };
              controller.abort(new Error('stop searching'));
            }
            handlers.message(message);
          },
          lost: () => handlers.lost(),
        });
      },
      finish: (id: number) => pool.finish(id),
    } as unknown as SearchWorkers;
    const running = runJob(plan.job, {
      participate: false,
      workers: 2,
      pool: watched,
      budget: Number.POSITIVE_INFINITY,
      signal: controller.signal,
    });
    await expect(running).rejects.toThrow('stop searching');
    // The next job queues behind the aborted one on the same workers: once it is answered, both
    // have left the aborted job, and none failed.
    const again = await engineFiles(fixture(true), false, [], { participate: false, workers: 2, pool });
    expect(again.files.length).toBeGreaterThan(0);
    expect(pool.failureCount).toBe(0);
    expect(control).not.toBeNull();
    expect(atAbort).not.toBeNull();
    const words = control as unknown as Int32Array;
    const before = atAbort as unknown as { claimed: number; done: number };
    // A worker past its claim check when the flag went up takes one more unit at most, and stops
    // the unit it is inside at its next file; either way at most one unit per worker ends later.
    expect(Atomics.load(words, NEXT)).toBeLessThanOrEqual(before.claimed + 2);
    expect(done(words) - before.done).toBeLessThanOrEqual(2);
  });
});

describe('search.text on the engine', () => {
  it('returns the same result from the CLI thread, from workers and from the calling thread alone', async () => {
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
        const run = (transport: 'cli' | 'mcp', env: Record<string, string | undefined>) =>
          text.run(
            withDefaults(text.inputSchema, args) as never,
            testContext({ cwd: root, limit, transport, env: { PATH: process.env.PATH, ...env } }),
          );
        const alone = await run('cli', { AH_SEARCH_WORKERS: '0' });
        expect(await run('cli', {})).toEqual(alone);
        expect(await run('mcp', {})).toEqual(alone);
        expect(alone.match_count).toBeGreaterThan(0);
        if (limit !== null) expect(alone).toMatchObject({ truncated: true, match_count: limit });
      }
    }
  });

  it("rejects with the caller's reason when aborted mid-search", async () => {
    // 480,000 matches: far more work than the 5 ms before the abort. How little runs after an
    // abort is checked on the engine itself ("claims and finishes no unit after the signal aborts").
    const root = tempDir();
    for (let d = 0; d < 60; d += 1)
      write(root, Object.fromEntries(Array.from({ length: 40 }, (_, f) => [`d${d}/f${f}.txt`, 'needle\n'.repeat(200)])));
    const ctx = testContext({ cwd: root });
    const running = text.run(withDefaults(text.inputSchema, { pattern: 'needle' }) as never, ctx);
    setTimeout(() => ctx.controller.abort(new Error('caller gave up')), 5);
    await expect(running).rejects.toThrow('caller gave up');
  });
});

/** A tree where `(a+)+$` backtracks for ever: one long line of 'a's followed by '!'. */
function hostileTree(): string {
  const root = tempDir();
  write(root, { 'long.txt': `${'a'.repeat(10_000)}!\n`, 'ok.txt': 'the needle\n' });
  return root;
}

/** A search job over `root` and a signal that times out as the executor's does (EXECUTION_TIMEOUT). */
async function searchJob(root: string, pattern: string, regex: boolean, timeoutMs: number) {
  const spec = createSpec(pattern, { regex, ignoreCase: false, maxBytes: 1 << 20, context: 0, maxHits: Number.POSITIVE_INFINITY });
  const plan = planSearch(await resolveRoots(root, []), { cwd: root, spec, globs: [], followSymlinks: false, env: {} });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AhError({ code: 'EXECUTION_TIMEOUT', message: 'timed out' })), timeoutMs);
  return { job: plan.job, signal: controller.signal, deadline: Date.now() + timeoutMs, done: () => clearTimeout(timer) };
}

/** Polls `condition` every 20 ms, at most 10 s. */
async function eventually(condition: () => boolean): Promise<boolean> {
  for (let i = 0; i < 500 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

const timeoutCode = (error: unknown) => (error as AhError).code;

describe('catastrophic regexes', () => {
  it('time out; the workers stuck in them are replaced, and the next search runs normally', async () => {
    const pool = new SearchWorkers(2, WORKER);
    try {
      const root = hostileTree();
      const runs = await Promise.all([searchJob(root, '(a+)+$', true, 400), searchJob(root, '(a+)+$', true, 400)]);
      const settled = await Promise.allSettled(
        runs.map((r) => runJob(r.job, { participate: false, workers: 2, pool, budget: Number.POSITIVE_INFINITY, ...r })),
      );
      for (const r of runs) r.done();
      expect(settled.map((s) => (s.status === 'rejected' ? timeoutCode(s.reason) : 'resolved'))).toEqual([
        'EXECUTION_TIMEOUT',
        'EXECUTION_TIMEOUT',
      ]);
      const stuck = pool.threadIds;
      const next = await searchJob(root, 'needle', false, 10_000);
      const results = await runJob(next.job, { participate: false, workers: 2, pool, budget: Number.POSITIVE_INFINITY, ...next });
      next.done();
      expect(results.flatMap((u) => u.matches).map((m) => [m.path, m.line, m.column])).toEqual([['ok.txt', 1, 5]]);
      // It ran on new workers: none of the threads that were stuck is in the pool.
      expect(pool.replacedCount).toBe(2);
      expect(stuck.length).toBeGreaterThan(0);
      expect(pool.threadIds.length).toBeGreaterThan(0);
      expect(pool.threadIds.filter((id) => stuck.includes(id))).toEqual([]);
      expect(pool.failureCount).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('terminate a worker that ignores stop requests', async () => {
    const dir = tempDir();
    const tidFile = join(dir, 'tid');
    // Reports its Linux thread id, then spins without ever looking at the job's cancel flag.
    writeFileSync(
      join(dir, 'spins.cjs'),
      `const fs = require('node:fs');
require('node:worker_threads').parentPort.on('message', () => {
  fs.writeFileSync(${JSON.stringify(tidFile)}, fs.readlinkSync('/proc/thread-self').split('/').pop());
  for (;;) {}
});
`,
    );
    const pool = new SearchWorkers(1, join(dir, 'spins.cjs'));
    try {
      const run = await searchJob(hostileTree(), 'needle', false, 300);
      await expect(runJob(run.job, { participate: false, workers: 1, pool, budget: Number.POSITIVE_INFINITY, ...run })).rejects.toThrow(
        'timed out',
      );
      run.done();
      expect(await eventually(() => existsSync(tidFile))).toBe(true);
      const thread = `/proc/self/task/${readFileSync(tidFile, 'utf8')}`;
      expect(await eventually(() => !existsSync(thread))).toBe(true);
      expect(pool.replacedCount).toBe(1);
      expect(pool.failureCount).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('leave a literal search on the calling thread to stop at the deadline between its slices', async () => {
    const run = await searchJob(hostileTree(), 'needle', false, 0);
    const error = await runJob(run.job, { participate: true, workers: 0, budget: Number.POSITIVE_INFINITY, ...run }).catch((e) => e);
    run.done();
    expect(timeoutCode(error)).toBe('EXECUTION_TIMEOUT');
    const unhurried = await searchJob(hostileTree(), 'needle', false, 10_000);
    const results = await runJob(unhurried.job, { participate: true, workers: 0, budget: Number.POSITIVE_INFINITY, ...unhurried });
    unhurried.done();
    expect(results.reduce((n, r) => n + r.hits, 0)).toBe(1);
  });

  it('stop on the calling thread at the deadline', async () => {
    const run = await searchJob(hostileTree(), '(a+)+$', true, 300);
    const error = await runJob(run.job, { participate: true, workers: 0, budget: Number.POSITIVE_INFINITY, ...run }).catch((e) => e);
    run.done();
    expect(timeoutCode(error)).toBe('EXECUTION_TIMEOUT');
    // The guard itself: a match that never returns is stopped; ordinary work returns its value.
    const line = `${'a'.repeat(10_000)}!`;
    expect(runInterruptible(() => /(a+)+$/u.test(line), Date.now() + 200)).toBe('timeout');
    expect(runInterruptible(() => 42, Date.now() + 10_000)).toEqual({ value: 42 });
    expect(runInterruptible(() => 42, Number.POSITIVE_INFINITY)).toEqual({ value: 42 });
  });
});
