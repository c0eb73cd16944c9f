// Several real processes toggle domains in plugins.json at the same time: nothing is lost, and a
// reader never sees a torn file.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { updateDisabledDomains } from '../../src/plugins/settings.js';
import { tempDir } from '../helpers/tmp.js';

async function bundle(dir: string): Promise<string> {
  const out = join(dir, 'settings.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, '../../src/plugins/settings.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'silent',
  });
  return out;
}

function run(script: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

describe('plugins.json under concurrent writers', () => {
  it('keeps every toggle of four processes', async () => {
    const dir = tempDir();
    const module = await bundle(dir);
    const path = join(dir, 'plugins.json');
    const writers = ['a', 'b', 'c', 'd'].map((name) =>
      run(`
        import { updateDisabledDomains } from ${JSON.stringify(module)};
        for (let i = 0; i < 25; i++) {
          await updateDisabledDomains(${JSON.stringify(path)}, (d) => [...d, '${name}' + i]);
          if (i % 2 === 1) await updateDisabledDomains(${JSON.stringify(path)}, (d) => d.filter((x) => x !== '${name}' + (i - 1)));
        }
      `),
    );
    // Meanwhile a reader must only ever see no file or a complete, valid document.
    let done = false;
    let reads = 0;
    const reader = (async () => {
      while (!done) {
        const text = await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
        if (text !== null) {
          const doc = JSON.parse(text) as { version: number; disabled_domains: unknown };
          expect(doc.version).toBe(1);
          expect(Array.isArray(doc.disabled_domains)).toBe(true);
          reads += 1;
        }
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    const codes = await Promise.all(writers);
    done = true;
    await reader;
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(reads).toBeGreaterThan(0);
    expect(readdirSync(dir).sort()).toEqual(['plugins.json', 'settings.mjs']);
    const stored = JSON.parse(readFileSync(path, 'utf8')) as { version: number; disabled_domains: string[] };
    const expected = ['a', 'b', 'c', 'd'].flatMap((n) =>
      Array.from({ length: 25 }, (_, i) => i)
        .filter((i) => i % 2 === 1 || i === 24)
        .map((i) => `${n}${i}`),
    );
    expect(stored.version).toBe(1);
    expect(stored.disabled_domains).toEqual(expected.sort());
  });

  it('times out with PERSISTENCE_LOCK_TIMEOUT while a live process holds the lock', async () => {
    const dir = tempDir();
    const path = join(dir, 'plugins.json');
    // Our own (live) pid holds the lock.
    writeFileSync(`${path}.lock`, String(process.pid));
    const started = Date.now();
    await expect(updateDisabledDomains(path, (d) => [...d, 'x'])).rejects.toMatchObject({
      code: 'PERSISTENCE_LOCK_TIMEOUT',
      retryable: true,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
  }, 15_000);

  it('takes over a stale lock left by a dead process', async () => {
    const dir = tempDir();
    const path = join(dir, 'plugins.json');
    writeFileSync(`${path}.lock`, '999999999');
    await expect(updateDisabledDomains(path, () => ['x'])).resolves.toEqual({ disabled: ['x'], changed: true });
  });
});
