/**
 * The one place a suite decides to skip because a system program is missing. A skip is never
 * silent: `unavailable()` writes the suite, the reason and an install hint to the skip log
 * (test-artifacts/skips.jsonl, or AH_TEST_SKIP_LOG), which scripts/test.mjs prints above its
 * summary line and, under CI=true, counts as failures.
 *
 *   describe.skipIf(unavailable('secrets setup in Chromium', CHROMIUM))('secrets setup in Chromium', …)
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sandboxUnavailable } from './systemd-sandbox.js';

/** A system program (or capability) a suite needs. */
export interface Need {
  readonly name: string;
  /** Why it cannot be used here, or null when it can. Runs at most once per process. */
  readonly probe: () => string | null;
  /** What a person types (or does) to get it. */
  readonly hint: string;
}

export interface SkipRecord {
  suite: string;
  need: string;
  reason: string;
  hint: string;
}

const root = resolve(import.meta.dirname, '../..');
export const SKIP_LOG = process.env.AH_TEST_SKIP_LOG ?? join(root, 'test-artifacts', 'skips.jsonl');

const runs = (command: string, args: string[]): boolean => spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 }).status === 0;

export const CHROMIUM: Need = {
  name: 'chromium',
  probe: () => (existsSync('/usr/bin/chromium') ? null : '/usr/bin/chromium is not installed'),
  hint: 'apt-get install chromium',
};

export const SYSTEMD_USER_MANAGER: Need = {
  name: 'systemd --user (sandboxed)',
  probe: sandboxUnavailable,
  hint: 'apt-get install systemd, and run the suite as root on Linux (the sandbox needs its own cgroup and mount namespace)',
};

export const SYSTEMD_ANALYZE: Need = {
  name: 'systemd-analyze',
  probe: () => (runs('systemd-analyze', ['--version']) ? null : 'systemd-analyze is not on PATH'),
  hint: 'apt-get install systemd',
};

export const KEYRING_SESSION: Need = {
  name: 'keyctl session keyring',
  probe: () => {
    if (process.platform !== 'linux') return 'the kernel keyring is Linux only';
    if (!runs('keyctl', ['--version'])) return 'keyctl is not on PATH';
    // Some containers ship keyctl but forbid new session keyrings: probe the real operation.
    return runs('keyctl', ['session', '-', 'true']) ? null : 'keyctl cannot create a session keyring here';
  },
  hint: 'apt-get install keyutils (and run where new kernel session keyrings are allowed)',
};

export const SCRIPT_PTY: Need = {
  name: 'script (a pseudo-terminal)',
  probe: () => {
    if (process.platform !== 'linux') return 'the terminal tests drive util-linux script(1), Linux only';
    return runs('script', ['--version']) ? null : 'script is not on PATH';
  },
  hint: 'apt-get install bsdutils',
};

const probed = new Map<Need, string | null>();

function reasonFor(need: Need): string | null {
  if (!probed.has(need)) probed.set(need, need.probe());
  return probed.get(need) ?? null;
}

/**
 * True when one of `needs` is missing; then the suite is logged as skipped with the reason and
 * hint of every missing need. `suite` is the describe/test title the skip applies to.
 */
export function unavailable(suite: string, ...needs: Need[]): boolean {
  const missing: SkipRecord[] = [];
  for (const need of needs) {
    const reason = reasonFor(need);
    if (reason !== null) missing.push({ suite, need: need.name, reason, hint: need.hint });
  }
  if (missing.length === 0) return false;
  mkdirSync(dirname(SKIP_LOG), { recursive: true });
  // One short line per append: concurrent test processes' lines do not interleave.
  appendFileSync(SKIP_LOG, missing.map((r) => `${JSON.stringify(r)}\n`).join(''));
  for (const r of missing) process.stderr.write(`skipped: ${suite}: ${r.reason} (install: ${r.hint})\n`);
  return true;
}
