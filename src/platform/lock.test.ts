import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/tmp.js';
import { withFileLock } from './lock.js';

describe('withFileLock', () => {
  it('serializes holders and leaves no files behind', async () => {
    const dir = tempDir();
    const target = join(dir, 'data.json');
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, () =>
        withFileLock(target, { timeoutMs: 5000 }, async () => {
          inside += 1;
          most = Math.max(most, inside);
          await new Promise((r) => setTimeout(r, 5));
          inside -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes over a lock whose owner is dead', async () => {
    const dir = tempDir();
    const target = join(dir, 'data.json');
    // A pid far above pid_max on Linux cannot belong to a live process.
    writeFileSync(`${target}.lock`, '99999999');
    expect(await withFileLock(target, { timeoutMs: 1000 }, async () => 'ran')).toBe('ran');
    expect(existsSync(`${target}.lock`)).toBe(false);
  });

  it('times out with the given code while a live process holds it', async () => {
    const dir = tempDir();
    const target = join(dir, 'data.json');
    writeFileSync(`${target}.lock`, String(process.pid));
    await expect(withFileLock(target, { timeoutMs: 50, code: 'VAULT_BUSY' }, async () => 'ran')).rejects.toMatchObject({
      code: 'VAULT_BUSY',
    });
  });
});
