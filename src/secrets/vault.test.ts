import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/tmp.js';
import { buildVaultWorker } from '../../test/helpers/vault.js';
import { keySourceFromHex } from './keys.js';
import { createVault } from './vault.js';

const KEY = randomBytes(32).toString('hex');
const PLANTED = `planted-${randomBytes(8).toString('hex')}`;

function fresh(dir = tempDir(), key = KEY) {
  return { dir, vault: createVault({ configDir: join(dir, 'config'), key: keySourceFromHex(key) }) };
}

describe('vault', () => {
  it('round-trips records through the encrypted file', async () => {
    const { vault } = fresh();
    expect(await vault.init()).toEqual({ created: true });
    expect(await vault.init()).toEqual({ created: false });
    expect(await vault.add({ id: 'gh', kind: 'github-token', label: 'GitHub', values: { token: PLANTED } })).toEqual({
      id: 'gh',
      kind: 'github-token',
      label: 'GitHub',
      description: null,
    });
    await vault.add({ id: 'web', kind: 'http-basic', description: 'intranet', values: { username: 'u', password: 'p' } });
    expect(await vault.list()).toEqual([
      { id: 'gh', kind: 'github-token', label: 'GitHub', description: null },
      { id: 'web', kind: 'http-basic', label: 'web', description: 'intranet' },
    ]);
    expect((await vault.list('http-basic')).map((s) => s.id)).toEqual(['web']);
    expect((await vault.read('gh')).values).toEqual({ token: PLANTED });
    expect(await vault.edit('web', { label: 'Intranet', values: { password: 'p2', username: '' } })).toMatchObject({ label: 'Intranet' });
    expect((await vault.read('web')).values).toEqual({ username: 'u', password: 'p2' });
    expect(await vault.remove('gh')).toMatchObject({ id: 'gh' });
    expect((await vault.list()).map((s) => s.id)).toEqual(['web']);
    // A second instance (another process, in effect) sees the same content.
    expect(
      (
        await createVault({ configDir: join(fresh().dir, 'x'), key: keySourceFromHex(KEY) })
          .list()
          .catch((e) => e)
      ).code,
    ).toBe('VAULT_NOT_INITIALIZED');
  });

  it('keeps values out of the file bytes, with owner-only permissions and no leftovers', async () => {
    const { dir, vault } = fresh();
    await vault.init();
    await vault.add({ id: 'gh', kind: 'github-token', values: { token: PLANTED } });
    const bytes = readFileSync(vault.path);
    expect(bytes.includes(Buffer.from(PLANTED))).toBe(false);
    expect(bytes.includes(Buffer.from('github-token'))).toBe(false);
    if (process.platform !== 'win32') expect(statSync(vault.path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'config')).sort()).toEqual(['secrets.v1.json']);
  });

  it('reports the digest codes', async () => {
    const { vault } = fresh();
    await expect(vault.list()).rejects.toMatchObject({ code: 'VAULT_NOT_INITIALIZED' });
    await expect(vault.add({ id: 'a', kind: 'github-token', values: { token: 't' } })).rejects.toMatchObject({
      code: 'VAULT_NOT_INITIALIZED',
    });
    await vault.init();
    await vault.add({ id: 'a', kind: 'github-token', values: { token: 't' } });
    await expect(vault.add({ id: 'a', kind: 'github-token', values: { token: 't' } })).rejects.toMatchObject({
      code: 'VAULT_SECRET_EXISTS',
    });
    await expect(vault.read('b')).rejects.toMatchObject({ code: 'VAULT_SECRET_NOT_FOUND' });
    await expect(vault.edit('b', {})).rejects.toMatchObject({ code: 'VAULT_SECRET_NOT_FOUND' });
    await expect(vault.remove('b')).rejects.toMatchObject({ code: 'VAULT_SECRET_NOT_FOUND' });
    await expect(vault.add({ id: 'c', kind: 'github-token', values: {} })).rejects.toMatchObject({ code: 'VAULT_INVALID_SECRET' });
  });

  it('writes a fresh nonce every time', async () => {
    const { vault } = fresh();
    await vault.init();
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i += 1) {
      await vault.add({ id: `s${i}`, kind: 'github-token', values: { token: 't' } });
      nonces.add((JSON.parse(readFileSync(vault.path, 'utf8')) as { nonce: string }).nonce);
    }
    expect(nonces.size).toBe(5);
  });

  describe('refuses a damaged or foreign vault with VAULT_LOCKED and leaves it untouched', () => {
    async function damaged(change: (text: string) => string): Promise<ReturnType<typeof fresh>> {
      const f = fresh();
      await f.vault.init();
      await f.vault.add({ id: 'a', kind: 'github-token', values: { token: PLANTED } });
      writeFileSync(f.vault.path, change(readFileSync(f.vault.path, 'utf8')));
      return f;
    }
    const flip = (text: string) => {
      const e = JSON.parse(text) as { ciphertext: string };
      const body = Buffer.from(e.ciphertext, 'base64');
      body[3] = (body[3] as number) ^ 4;
      return JSON.stringify({ ...e, ciphertext: body.toString('base64') });
    };

    it.each([
      ['tampered ciphertext', flip],
      ['a truncated file', (t: string) => t.slice(0, 40)],
      ['an empty file', () => ''],
      ['another version', (t: string) => JSON.stringify({ ...JSON.parse(t), version: 2 })],
    ])('%s', async (_name, change) => {
      const { vault } = await damaged(change);
      const before = readFileSync(vault.path);
      for (const attempt of [
        () => vault.list(),
        () => vault.read('a'),
        () => vault.init(),
        () => vault.add({ id: 'b', kind: 'github-token', values: { token: 't' } }),
        () => vault.remove('a'),
      ]) {
        await expect(attempt()).rejects.toMatchObject({ code: 'VAULT_LOCKED' });
      }
      expect(readFileSync(vault.path).equals(before)).toBe(true);
    });

    it('the wrong key', async () => {
      const { dir, vault } = fresh();
      await vault.init();
      const other = createVault({ configDir: join(dir, 'config'), key: keySourceFromHex(randomBytes(32).toString('hex')) });
      await expect(other.list()).rejects.toMatchObject({ code: 'VAULT_LOCKED' });
      await expect(other.init()).rejects.toMatchObject({ code: 'VAULT_LOCKED' });
    });
  });

  it('gives up on a lock that a live process keeps with VAULT_BUSY', async () => {
    const { dir, vault } = fresh();
    await vault.init();
    // Our own (live) pid: the lock is neither dead nor old, so it must be waited for.
    writeFileSync(join(dir, 'config', 'secrets.v1.lock'), String(process.pid));
    const impatient = createVault({ configDir: join(dir, 'config'), key: keySourceFromHex(KEY), lockTimeoutMs: 100 });
    await expect(impatient.add({ id: 'a', kind: 'github-token', values: { token: 't' } })).rejects.toMatchObject({
      code: 'VAULT_BUSY',
      retryable: true,
    });
  });
});

describe('vault across processes', () => {
  let workerDir: string;
  let worker: string;

  beforeAll(async () => {
    workerDir = mkdtempSync(join(tmpdir(), 'ah-vault-worker-'));
    worker = await buildVaultWorker(workerDir);
  });
  afterAll(() => rmSync(workerDir, { recursive: true, force: true }));

  function start(args: string[]) {
    const child = spawn(process.execPath, [worker, ...args], {
      env: { PATH: process.env.PATH, AH_VAULT_MASTER_KEY: KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    return { child, exited, stdout: () => stdout, stderr: () => stderr };
  }

  it('two processes adding at the same time lose nothing', async () => {
    const { dir, vault } = fresh();
    await vault.init();
    const configDir = join(dir, 'config');
    const a = start(['add', configDir, 'a', '25']);
    const b = start(['add', configDir, 'b', '25']);
    expect(await a.exited, a.stderr()).toBe(0);
    expect(await b.exited, b.stderr()).toBe(0);
    const ids = (await vault.list()).map((s) => s.id);
    expect(ids).toHaveLength(50);
    expect((await vault.read('a-24')).values.token).toBe('a-token-24');
    expect((await vault.read('b-0')).values.token).toBe('b-token-0');
  }, 60_000);

  it('a writer killed with SIGKILL mid-way leaves the old or the new content', async () => {
    const { dir, vault } = fresh();
    await vault.init();
    await vault.add({ id: 'r', kind: 'github-token', values: { token: 'v0' } });
    const configDir = join(dir, 'config');
    for (let round = 0; round < 5; round += 1) {
      const w = start(['churn', configDir, 'r']);
      const target = 10 + Math.floor(Math.random() * 30);
      // Wait until it has finished a few writes, then kill it at an arbitrary point of the next ones.
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (w.stdout().split('\n').length > target) {
            clearInterval(timer);
            resolve();
          }
        }, 1);
        void w.exited.then(() => reject(new Error(`worker exited early: ${w.stderr()}`)));
      });
      w.child.kill('SIGKILL');
      await w.exited;
      const done = w.stdout().trim().split('\n').map(Number);
      const last = done[done.length - 1] as number;
      const record = await vault.read('r');
      // Either the last acknowledged write or the one in flight when it died; never anything else.
      expect([`v${last}`, `v${last + 1}`]).toContain(record.values.token);
      expect(record.label).toBe(`label ${record.values.token?.slice(1)}`);
    }
    // A lock left behind by a killed writer is taken over, so the vault stays writable.
    await vault.add({ id: 'after', kind: 'github-token', values: { token: 't' } });
    expect((await vault.list()).map((s) => s.id)).toEqual(['after', 'r']);
  }, 60_000);

  it('the next write sweeps the encrypted snapshots that killed writers left behind', async () => {
    const { dir, vault } = fresh();
    await vault.init();
    await vault.add({ id: 'doomed', kind: 'github-token', values: { token: 'old' } });
    const configDir = join(dir, 'config');
    // A writer killed after writing its temp snapshot (which still holds 'doomed') and before the rename.
    const snapshot = readFileSync(join(configDir, 'secrets.v1.json'));
    const victim = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const pid = victim.pid as number;
    writeFileSync(join(configDir, `.secrets.v1.json.${pid}.0badc0de.tmp`), snapshot);
    writeFileSync(join(configDir, `secrets.v1.lock.${pid}.0badc0de.tmp`), String(pid));
    victim.kill('SIGKILL');
    await new Promise((resolve) => victim.once('exit', resolve));
    await vault.remove('doomed');
    expect(readdirSync(configDir)).toEqual(['secrets.v1.json']);
    await expect(vault.read('doomed')).rejects.toMatchObject({ code: 'VAULT_SECRET_NOT_FOUND' });
  }, 30_000);
});
