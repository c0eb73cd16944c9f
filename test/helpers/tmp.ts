import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

const made: string[] = [];

afterEach(() => {
  while (made.length > 0) {
    const dir = made.pop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
});

/** A fresh temp directory (real path), removed after the current test. */
export function tempDir(prefix = 'ah-test-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

const suiteMade: string[] = [];

afterAll(() => {
  for (const dir of suiteMade.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp directory that lives until the end of the test file (for beforeAll set-ups). */
export function suiteTempDir(prefix = 'ah-suite-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  suiteMade.push(dir);
  return dir;
}
