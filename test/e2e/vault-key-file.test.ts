// The vault key must not be readable from the server's own environment block: a run.check child
// reads /proc/$PPID/environ (the ah process that started it) and must not find it there. With
// AH_VAULT_MASTER_KEY_FILE the key never enters any environment; the vault works the same.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runAh } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const PROBE = ['run', 'check', '--', 'sh', '-c', 'tr "\\0" "\\n" < /proc/$PPID/environ'];

describe.skipIf(process.platform !== 'linux')('vault key and /proc/<pid>/environ', () => {
  it('with AH_VAULT_MASTER_KEY_FILE, a run.check child cannot find the key in /proc/$PPID/environ', async () => {
    const key = randomBytes(32).toString('hex');
    const keyFile = join(tempDir(), 'vault.key');
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    const { env } = isolatedEnv({ AH_VAULT_MASTER_KEY_FILE: keyFile, AH_VAULT_MASTER_KEY: undefined });
    // The vault works with the key from the file.
    expect((await runAh(['--json', 'secrets', 'init'], { env })).json()).toMatchObject({ created: true });
    expect((await runAh(['--json', 'secrets', 'list'], { env })).json()).toEqual({ secrets: [] });
    // ... and only with that key: another key file does not open the vault.
    const otherFile = join(tempDir(), 'other.key');
    writeFileSync(otherFile, randomBytes(32).toString('hex'), { mode: 0o600 });
    const wrong = await runAh(['--json', 'secrets', 'list'], { env: { ...env, AH_VAULT_MASTER_KEY_FILE: otherFile } });
    expect(wrong.code).toBe(1);
    const probe = await runAh(['--json', ...PROBE], { env });
    const out = probe.json() as { success: boolean; stdout: string };
    expect(out.success).toBe(true);
    // The probe did read the parent's environment (it names the key file, not the key).
    expect(out.stdout).toContain(`AH_VAULT_MASTER_KEY_FILE=${keyFile}`);
    expect(out.stdout).not.toContain(key);
    expect(out.stdout).not.toContain('AH_VAULT_MASTER_KEY=');
  }, 60_000);

  it('the probe is real: a key passed in AH_VAULT_MASTER_KEY is still in the initial environment block', async () => {
    // The documented limit of the environment variable (README): deleting it from process.env
    // keeps it from children's environments but not from /proc/<pid>/environ.
    const key = randomBytes(32).toString('hex');
    const { env } = isolatedEnv({ AH_VAULT_MASTER_KEY: key });
    const out = (await runAh(['--json', ...PROBE], { env })).json() as { stdout: string };
    expect(out.stdout).toContain(key);
  }, 60_000);
});
