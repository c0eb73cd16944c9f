import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/tmp.js';
import { execCapture } from './exec.js';

const node = process.execPath;
const env = { PATH: process.env.PATH };

function script(code: string): string[] {
  return ['-e', code];
}

describe('execCapture', () => {
  it('captures stdout and stderr as bytes with the exit code', async () => {
    const r = await execCapture(
      node,
      script("process.stdout.write(Buffer.from([0x61, 0, 0xff, 0x0a])); process.stderr.write('warn'); process.exit(3)"),
      { cwd: tempDir(), env },
    );
    expect(r.kind).toBe('exited');
    if (r.kind !== 'exited') return;
    expect(r.code).toBe(3);
    expect(r.signal).toBeNull();
    expect([...r.stdout]).toEqual([0x61, 0, 0xff, 0x0a]);
    expect(r.stderr.toString()).toBe('warn');
    expect(r.stdoutTruncated).toBe(false);
    expect(r.stderrTruncated).toBe(false);
  });

  it('honours cwd and env', async () => {
    const dir = tempDir();
    const r = await execCapture(node, script('process.stdout.write(process.cwd() + "|" + process.env.AH_EXEC_PROBE)'), {
      cwd: dir,
      env: { ...env, AH_EXEC_PROBE: 'yes', AH_UNSET: undefined },
    });
    expect(r.kind === 'exited' && r.stdout.toString()).toBe(`${dir}|yes`);
  });

  it('caps each stream at maxBytes exactly and keeps draining', async () => {
    const r = await execCapture(
      node,
      script("process.stdout.write('x'.repeat(100000)); process.stderr.write('e'.repeat(10)); process.stdout.write('tail')"),
      { cwd: tempDir(), env, maxBytes: 1000 },
    );
    expect(r.kind).toBe('exited');
    if (r.kind !== 'exited') return;
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBe(1000);
    expect(r.stdoutTruncated).toBe(true);
    expect(r.stderr.toString()).toBe('e'.repeat(10));
    expect(r.stderrTruncated).toBe(false);
  });

  it('reports a missing program as data', async () => {
    const r = await execCapture('ah-no-such-program-xyz', [], { cwd: tempDir(), env });
    expect(r).toEqual({ kind: 'missing', program: 'ah-no-such-program-xyz' });
  });

  it('looks the program up on the PATH given in env', async () => {
    const empty = tempDir();
    const r = await execCapture('node', ['-e', ''], { cwd: empty, env: { PATH: empty } });
    expect(r.kind).toBe('missing');
  });

  it('does not blame the program when the working directory is missing', async () => {
    const r = await execCapture(node, script(''), { cwd: join(tempDir(), 'gone'), env });
    expect(r.kind).toBe('failed');
    if (r.kind === 'failed') expect(r.errno).toBe('ENOENT');
  });

  it('kills the process when the signal fires', async () => {
    const dir = tempDir();
    const marker = join(dir, 'finished');
    const controller = new AbortController();
    const started = Date.now();
    const pending = execCapture(node, script(`setTimeout(() => require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x'), 5000)`), {
      cwd: dir,
      env,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    const r = await pending;
    expect(r.kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(4000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(marker)).toBe(false);
  });

  it('escalates to SIGKILL when SIGTERM is ignored', async () => {
    const controller = new AbortController();
    const pending = execCapture(
      node,
      script("process.on('SIGTERM', () => {}); process.stdout.write('ready'); setInterval(() => {}, 1000)"),
      { cwd: tempDir(), env, signal: controller.signal, killGraceMs: 50 },
    );
    setTimeout(() => controller.abort(), 500);
    expect((await pending).kind).toBe('aborted');
  });

  it('does not start anything when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    const dir = tempDir();
    const marker = join(dir, 'ran');
    const r = await execCapture(node, script(`require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')`), {
      cwd: dir,
      env,
      signal: controller.signal,
    });
    expect(r.kind).toBe('aborted');
    expect(existsSync(marker)).toBe(false);
  });
});
