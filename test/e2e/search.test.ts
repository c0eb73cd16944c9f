import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AH_BIN, isolatedEnv, runAh } from '../helpers/cli.js';
import { connectStdio, type StdioServer, waitFor } from '../helpers/mcp.js';
import { tempDir } from '../helpers/tmp.js';

function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

type Search = {
  match_count: number;
  file_count: number;
  truncated: boolean;
  matches: { path: string; line: number; column: number; text: string; context_before: unknown[]; context_after: unknown[] }[];
  skipped_binary_files: number;
  skipped_large_files: number;
  skipped_symlink_files: number;
};

async function search(dir: string, args: string[], env = isolatedEnv().env): Promise<Search> {
  const r = await runAh(['--json', 'search', 'text', ...args], { cwd: dir, env });
  if (r.code !== 0) throw new Error(r.stderr);
  return r.json<Search>();
}

describe('ah search text', () => {
  it('finds literal text with 1-based character columns and context', async () => {
    const dir = tempDir();
    write(dir, { 'a.txt': 'one\nthé needle here\nthree\nfour\n', 'b/c.txt': 'no\nneedle\n' });
    const r = await search(dir, ['needle', '--context', '1']);
    expect(r.match_count).toBe(2);
    expect(r.matches[0]).toEqual({
      path: 'a.txt',
      line: 2,
      column: 5,
      text: 'thé needle here',
      context_before: [{ line: 1, text: 'one' }],
      context_after: [{ line: 3, text: 'three' }],
    });
    expect(r.matches[1]).toMatchObject({ path: 'b/c.txt', line: 2, column: 1 });
    const emoji = tempDir();
    write(emoji, { 'e.txt': '😀😀x\n' });
    expect((await search(emoji, ['x'])).matches[0]?.column).toBe(3);
  });

  it('treats the pattern literally unless --regex, and honours --ignore-case', async () => {
    const dir = tempDir();
    write(dir, { 'a.txt': 'a.c\nabc\nABC\n' });
    expect((await search(dir, ['a.c'])).match_count).toBe(1);
    expect((await search(dir, ['a.c', '--regex'])).match_count).toBe(2);
    expect((await search(dir, ['abc', '--ignore-case'])).match_count).toBe(2);
    const bad = await runAh(['--json', 'search', 'text', '(', '--regex'], { cwd: dir });
    expect(bad.errorJson()).toMatchObject({ code: 'REGEX_INVALID' });
    const glob = await runAh(['--json', 'search', 'text', 'x', '--glob', '[a'], { cwd: dir });
    expect(glob.errorJson()).toMatchObject({ code: 'GLOB_INVALID' });
    // The built CLI loads the glob matcher on its first use (scripts/build.mjs): it still filters.
    write(dir, { 'src/k.ts': 'abc\n', 'src/k.test.ts': 'abc\n', 'k.md': 'abc\n' });
    const globbed = await search(dir, ['abc', '--glob', '*.ts', '--glob', '!**/*.test.ts']);
    expect(globbed.matches.map((m: { path: string }) => m.path)).toEqual(['src/k.ts']);
    const missing = await runAh(['--json', 'search', 'text', 'x', 'nope'], { cwd: dir });
    expect(missing.errorJson()).toMatchObject({ code: 'PATH_NOT_FOUND' });
  });

  it('honours nested .gitignore with negation, .ignore, .rgignore, hidden files and global excludes', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.git'));
    write(dir, {
      '.gitignore': '*.log\nbuild/\n',
      'keep.txt': 'hit\n',
      'x.log': 'hit\n',
      'build/out.txt': 'hit\n',
      'sub/.gitignore': '!important.log\n',
      'sub/important.log': 'hit\n',
      'sub/other.log': 'hit\n',
      '.hidden.txt': 'hit\n',
      'ig/.ignore': 'skip.txt\n',
      'ig/skip.txt': 'hit\n',
      'rg/.rgignore': 'skip.txt\n',
      'rg/skip.txt': 'hit\n',
      'global.tmp': 'hit\n',
    });
    const env = isolatedEnv();
    write(env.home, { '.gitconfig': `[core]\n\texcludesFile = ${join(env.home, 'global-ignore')}\n`, 'global-ignore': '*.tmp\n' });
    const r = await search(dir, ['hit'], env.env);
    expect(r.matches.map((m) => m.path)).toEqual(['keep.txt', 'sub/important.log']);
  });

  it('applies globs relative to each root and searches several roots', async () => {
    const dir = tempDir();
    write(dir, { 'a/x.ts': 'hit\n', 'a/y.md': 'hit\n', 'b/z.ts': 'hit\n', 'b/z.test.ts': 'hit\n' });
    const r = await search(dir, ['hit', 'a', 'b', '--glob', '*.ts', '--glob', '!*.test.ts']);
    expect(r.matches.map((m) => m.path)).toEqual(['a/x.ts', 'b/z.ts']);
  });

  it('counts binary, large and symlink skips', async () => {
    const dir = tempDir();
    write(dir, { 'bin.dat': Buffer.from([0x68, 0x69, 0x74, 0x00]), 'ok.txt': 'hit\n', 'big.txt': '' });
    truncateSync(join(dir, 'big.txt'), 2048);
    symlinkSync('ok.txt', join(dir, 'link.txt'));
    const r = await search(dir, ['hit', '--max-bytes', '1024']);
    expect(r).toMatchObject({ match_count: 1, skipped_binary_files: 1, skipped_large_files: 1, skipped_symlink_files: 1 });
    const followed = await search(dir, ['hit', '--follow-symlinks']);
    expect(followed.match_count).toBe(2);
  });

  it('applies the limit while scanning and detects truncation exactly', async () => {
    const dir = tempDir();
    write(dir, { 'a.txt': 'hit\nhit\nhit\n' });
    expect(await search(dir, ['hit', '--limit', '3'])).toMatchObject({ match_count: 3, truncated: false });
    expect(await search(dir, ['hit', '--limit', '2'])).toMatchObject({ match_count: 2, truncated: true });
  });

  it('renders path:line:text in text mode', async () => {
    const dir = tempDir();
    write(dir, { 'a.txt': 'x\nhit here\n' });
    const r = await runAh(['search', 'text', 'hit'], { cwd: dir });
    expect(r.stdout).toBe('a.txt:2:hit here\n');
  });
});

describe('ah search files', () => {
  it('matches a substring of the normalised path and honours ignore rules', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.git'));
    write(dir, { '.gitignore': 'dist/\n', 'src/config.ts': '', 'src/main.ts': '', 'dist/config.js': '' });
    const r = (await runAh(['--json', 'search', 'files', 'config'], { cwd: dir })).json();
    expect(r).toMatchObject({ command: 'search.files', match_count: 1, files: ['src/config.ts'], truncated: false });
    const all = (await runAh(['--json', '--limit', '1', 'search', 'files', ''], { cwd: dir })).json();
    expect(all).toMatchObject({ match_count: 1, truncated: true });
  });
});

describe('explicit roots', () => {
  it('searches a root that a parent .gitignore ignores, as ripgrep does', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.git'));
    write(dir, { '.gitignore': 'vendor/\ndist/\n', 'vendor/lib/a.txt': 'hit\n', 'vendor/lib/dist/c.txt': 'hit\n', 'src/b.txt': 'hit\n' });
    expect((await search(dir, ['hit'])).matches.map((m) => m.path)).toEqual(['src/b.txt']);
    // The named root is searched; the parent's other rules (dist/) still apply below it.
    expect((await search(dir, ['hit', 'vendor/lib'])).matches.map((m) => m.path)).toEqual(['vendor/lib/a.txt']);
  });
});

/** A tree where `(a+)+$` backtracks for ever: one long line of 'a's followed by '!'. */
function hostileTree(): string {
  const dir = tempDir();
  write(dir, { 'long.txt': `${'a'.repeat(10_000)}!\n`, 'ok.txt': 'the needle\n' });
  return dir;
}

/** CPU clock ticks (user + system) a thread or process has used, from /proc. */
function cpuTicks(statPath: string): number {
  try {
    const fields = readFileSync(statPath, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The `count` threads of `pid` that used the most CPU over `ms` (only those that used any). */
async function busiestThreads(pid: number, count: number, ms: number): Promise<string[]> {
  const tasks = () => readdirSync(`/proc/${pid}/task`);
  const before = new Map(tasks().map((tid) => [tid, cpuTicks(`/proc/${pid}/task/${tid}/stat`)]));
  await new Promise((resolve) => setTimeout(resolve, ms));
  return tasks()
    .map((tid) => ({ tid, used: cpuTicks(`/proc/${pid}/task/${tid}/stat`) - (before.get(tid) ?? 0) }))
    .filter((t) => t.used > 0)
    .sort((a, b) => b.used - a.used)
    .slice(0, count)
    .map((t) => t.tid);
}

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, Record<string, unknown>> };

describe('catastrophic regexes', () => {
  const open: StdioServer[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });

  async function serve(dir: string, env: NodeJS.ProcessEnv) {
    const s = await connectStdio([], { cwd: dir, env });
    open.push(s);
    const search = (args: Record<string, unknown>, timeoutMs: number) =>
      s.client.callTool(
        { name: 'ah.search.text', arguments: { ...args, context: { cwd: dir, timeout_ms: timeoutMs } } },
        { timeout: 60_000 },
      ) as Promise<ToolResult>;
    return { pid: s.transport.pid as number, search };
  }

  it('over MCP: two time out, the threads stuck in them end, and the next search answers', async () => {
    const dir = hostileTree();
    const { pid, search } = await serve(dir, isolatedEnv().env);
    const hostile = [search({ pattern: '(a+)+$', regex: true }, 2500), search({ pattern: '(a+)+$', regex: true }, 2500)];
    // The server's threads that burn the CPU while both run (its worker threads, stuck in the match).
    await new Promise((resolve) => setTimeout(resolve, 400));
    const stuck = await busiestThreads(pid, 2, 800);
    const outcomes = await Promise.all(hostile);
    expect(outcomes.map((o) => o._meta?.['dev.aihelper/diagnostic']?.code)).toEqual(['EXECUTION_TIMEOUT', 'EXECUTION_TIMEOUT']);
    const next = await search({ pattern: 'needle' }, 20_000);
    expect(next.isError ?? false).toBe(false);
    expect(next.structuredContent).toMatchObject({ match_count: 1, matches: [{ path: 'ok.txt', line: 1, column: 5 }] });
    expect(stuck.length).toBe(2);
    await waitFor(() => stuck.every((tid) => !existsSync(`/proc/${pid}/task/${tid}`)));
  });

  it('over MCP without workers: the server thread stops at the deadline and answers the next call', async () => {
    const dir = hostileTree();
    const { search } = await serve(dir, isolatedEnv({ AH_SEARCH_WORKERS: '0' }).env);
    const hostile = await search({ pattern: '(a+)+$', regex: true }, 1000);
    expect(hostile._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'EXECUTION_TIMEOUT' });
    const next = await search({ pattern: 'needle' }, 20_000);
    expect(next.structuredContent).toMatchObject({ match_count: 1, matches: [{ path: 'ok.txt', line: 1, column: 5 }] });
  });

  it('from the CLI: Ctrl-C stops a search inside a match', async () => {
    const dir = hostileTree();
    const child = spawn(process.execPath, [AH_BIN, '--json', 'search', 'text', '(a+)+$', '--regex'], {
      cwd: dir,
      env: isolatedEnv().env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const kill = setTimeout(() => child.kill('SIGKILL'), 25_000);
    try {
      // Half a second of CPU: well past start-up, inside the match.
      await waitFor(() => cpuTicks(`/proc/${child.pid}/stat`) >= 50, 20_000);
      child.kill('SIGINT');
      expect(await exited).not.toBeNull();
      expect(JSON.parse(stderr)).toMatchObject({ code: 'EXECUTION_CANCELLED' });
    } finally {
      clearTimeout(kill);
      child.kill('SIGKILL');
    }
  });
});

describe('numeric inputs', () => {
  it('have maximums', async () => {
    const dir = tempDir();
    write(dir, { 'a.txt': 'hit\n' });
    for (const args of [
      ['--context', '1001'],
      ['--max-bytes', String(64 * 1024 * 1024 + 1)],
    ]) {
      const r = await runAh(['--json', 'search', 'text', 'hit', ...args], { cwd: dir });
      expect(r.code).not.toBe(0);
      expect(r.errorJson().code).toMatch(/^INVALID_/);
    }
    expect((await search(dir, ['hit', '--context', '1000', '--max-bytes', String(64 * 1024 * 1024)])).match_count).toBe(1);
  });
});
