import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/tmp.js';
import { sweepStaleTemps } from './atomic-write.js';
import { acquireLock, lockHeld, withFileLock } from './lock.js';

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

describe('lock identity and takeover', () => {
  it.skipIf(process.platform !== 'linux')('takes over a lock whose pid is alive but was reused by another process', async () => {
    const dir = tempDir();
    const lockPath = join(dir, 'data.lock');
    // Our own pid, but a start time that is not ours: the owner was an earlier process with this pid.
    writeFileSync(lockPath, JSON.stringify({ pid: process.pid, start: '1', nonce: 'old' }));
    expect(await lockHeld(lockPath)).toBe(false);
    const lock = await acquireLock(lockPath, { timeoutMs: 0 });
    expect(lock).not.toBeNull();
    expect(await lockHeld(lockPath)).toBe(true);
    lock?.release();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('finishes a takeover whose claimant died holding its claim', async () => {
    const dir = tempDir();
    const lockPath = join(dir, 'data.lock');
    const stale = JSON.stringify({ pid: 99999999, nonce: 'a' });
    writeFileSync(lockPath, stale);
    const { createHash } = await import('node:crypto');
    const claim = `${lockPath}.${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`;
    writeFileSync(claim, JSON.stringify({ pid: 99999998, nonce: 'b' }));
    const lock = await acquireLock(lockPath, { timeoutMs: 0 });
    expect(lock).not.toBeNull();
    lock?.release();
  });

  it('a live holder keeps its lock; release never removes a lock that is no longer ours', async () => {
    const dir = tempDir();
    const lockPath = join(dir, 'data.lock');
    const first = await acquireLock(lockPath, { timeoutMs: 0 });
    expect(first).not.toBeNull();
    expect(await acquireLock(lockPath, { timeoutMs: 30 })).toBeNull();
    writeFileSync(lockPath, 'someone else');
    first?.release();
    expect(existsSync(lockPath)).toBe(true);
  });
});

describe('sweepStaleTemps', () => {
  it('removes temp files and lock leftovers of dead writers, keeps live ones', async () => {
    const dir = tempDir();
    const file = join(dir, 'secrets.v1.json');
    const lockPath = join(dir, 'secrets.v1.lock');
    writeFileSync(file, 'current');
    const dead = ['.secrets.v1.json.99999999.0a1b2c3d.tmp', 'secrets.v1.lock.99999999.0a1b2c3d.tmp', 'secrets.v1.lock.0123456789abcdef'];
    const live = [`.secrets.v1.json.${process.pid}.0a1b2c3d.tmp`, '.other.json.99999999.0a1b2c3d.tmp'];
    for (const name of [...dead, ...live]) writeFileSync(join(dir, name), 'x');
    await sweepStaleTemps(file, lockPath);
    expect(readdirSync(dir).sort()).toEqual([...live, 'secrets.v1.json'].sort());
  });
});
