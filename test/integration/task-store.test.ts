// The task store across real processes: concurrent saves lose nothing, and a writer killed at any
// moment leaves the old or the new file, never a broken one (and no lock that wedges later saves).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { suiteTempDir, tempDir } from '../helpers/tmp.js';

let storeModule = '';
let writerScript = '';
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

beforeAll(async () => {
  const dir = suiteTempDir('ah-task-store-');
  storeModule = join(dir, 'store.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, '../../src/commands/task/store.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: storeModule,
    logLevel: 'silent',
  });
  // argv: store path, name prefix, count, command size; saves count tasks one after another.
  writerScript = join(dir, 'writer.mjs');
  writeFileSync(
    writerScript,
    [
      `import { upsertTask } from ${JSON.stringify(pathToFileURL(storeModule).href)};`,
      'const [path, prefix, count, size] = process.argv.slice(2);',
      'for (let i = 0; i < Number(count); i += 1) {',
      '  await upsertTask(path, prefix + i, "echo " + prefix + i + " " + "x".repeat(Number(size)), 1);',
      "  if (i === 0) process.stdout.write('started\\n');",
      '}',
    ].join('\n'),
  );
});

function writer(path: string, prefix: string, count: number, size: number): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [writerScript, path, prefix, String(count), String(size)], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, exited };
}

function names(path: string): string[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { tasks: { name: string }[] }).tasks.map((t) => t.name);
}

describe('task store across processes', () => {
  it('two processes saving at once lose nothing', async () => {
    const path = join(tempDir(), '.ah', 'tasks.json');
    const a = writer(path, 'a', 40, 10);
    const b = writer(path, 'b', 40, 10);
    expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
    const saved = names(path);
    expect(saved).toHaveLength(80);
    for (let i = 0; i < 40; i += 1) {
      expect(saved).toContain(`a${i}`);
      expect(saved).toContain(`b${i}`);
    }
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('a killed writer leaves the old or the new file, and the next save still succeeds', async () => {
    const path = join(tempDir(), '.ah', 'tasks.json');
    let known: string[] = [];
    for (let round = 0; round < 6; round += 1) {
      const w = writer(path, `r${round}-`, 1000, 20_000);
      // Wait until it is saving, then kill it somewhere inside a later save.
      await new Promise<void>((resolve) => w.child.stdout?.once('data', () => resolve()));
      await new Promise((r) => setTimeout(r, 20 + round * 37));
      w.child.kill('SIGKILL');
      await w.exited;
      const now = names(path); // Parses: never a torn file.
      // Old or new: everything saved before is still there, in order, plus what this writer finished.
      expect(now.slice(0, known.length)).toEqual(known);
      expect(now.slice(known.length).every((n) => n.startsWith(`r${round}-`))).toBe(true);
      known = now;
    }
    // A dead writer's lock is taken over: a fresh save goes through.
    const done = writer(path, 'after', 1, 1);
    expect(await done.exited).toBe(0);
    expect(names(path)).toEqual([...known, 'after0']);
  });
});
