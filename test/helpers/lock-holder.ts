/**
 * A real process holding one of ah's locks (src/platform/lock.ts), for tests that need a lock held
 * by someone else. The lock module is bundled once per test file so a plain `node` child can load it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';
import { suiteTempDir } from './tmp.js';

let bundled: Promise<string> | undefined;

function lockModule(): Promise<string> {
  bundled ??= (async () => {
    const out = join(suiteTempDir('ah-lock-holder-'), 'lock.mjs');
    await build({
      entryPoints: [join(import.meta.dirname, '../../src/platform/lock.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: out,
      logLevel: 'silent',
    });
    return out;
  })();
  return bundled;
}

/**
 * Starts a process (its own process group) that takes the lock at `path` (waiting up to 30 s when
 * `wait`, else trying once), holds it for `seconds`, then releases it. Resolves once the process
 * runs; kill its group with SIGKILL to leave a dead owner's lock behind.
 */
export async function holdLockProcess(path: string, wait: boolean, seconds: number): Promise<ChildProcess> {
  const module = await lockModule();
  const script = `
    const { acquireLock } = await import(${JSON.stringify(module)});
    const lock = await acquireLock(${JSON.stringify(path)}, { timeoutMs: ${wait ? 30_000 : 0} });
    if (lock) { await new Promise((r) => setTimeout(r, ${Math.round(seconds * 1000)})); lock.release(); }
  `;
  return spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore', detached: true });
}
