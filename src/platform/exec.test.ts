import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, survivors } from '../../test/helpers/process.js';
import { tempDir } from '../../test/helpers/tmp.js';
import { runProcess } from './exec.js';

const node = process.execPath;
const env = { PATH: process.env.PATH };

function script(code: string): string[] {
  return ['-e', code];
}

describe('runProcess', () => {
  it('captures stdout and stderr as bytes with the exit code', async () => {
    const r = await runProcess(
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

  it('writes input to stdin and closes it; without input stdin is closed at once', async () => {
    const echo = script("let s=''; process.stdin.on('data', (d) => (s += d)).on('end', () => process.stdout.write('[' + s + ']'))");
    const fed = await runProcess(node, echo, { cwd: tempDir(), env, input: 'host=example.com\n\n' });
    expect(fed.kind === 'exited' && fed.stdout.toString()).toBe('[host=example.com\n\n]');
    const closed = await runProcess(node, echo, { cwd: tempDir(), env });
    expect(closed.kind === 'exited' && closed.stdout.toString()).toBe('[]');
    // A child that never reads its stdin is not an error of ours.
    const deaf = await runProcess(node, script('process.exit(0)'), { cwd: tempDir(), env, input: 'x'.repeat(1 << 20) });
    expect(deaf.kind).toBe('exited');
  });

  it('honours cwd and env', async () => {
    const dir = tempDir();
    const r = await runProcess(node, script('process.stdout.write(process.cwd() + "|" + process.env.AH_EXEC_PROBE)'), {
      cwd: dir,
      env: { ...env, AH_EXEC_PROBE: 'yes', AH_UNSET: undefined },
    });
    expect(r.kind === 'exited' && r.stdout.toString()).toBe(`${dir}|yes`);
  });

  it('caps each stream at maxBytes exactly and keeps draining', async () => {
    const r = await runProcess(
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
    const r = await runProcess('ah-no-such-program-xyz', [], { cwd: tempDir(), env });
    expect(r).toEqual({ kind: 'missing', program: 'ah-no-such-program-xyz' });
  });

  it('looks the program up on the PATH given in env', async () => {
    const empty = tempDir();
    const r = await runProcess('node', ['-e', ''], { cwd: empty, env: { PATH: empty } });
    expect(r.kind).toBe('missing');
  });

  it('does not blame the program when the working directory is missing', async () => {
    const r = await runProcess(node, script(''), { cwd: join(tempDir(), 'gone'), env });
    expect(r.kind).toBe('failed');
    if (r.kind === 'failed') expect(r.errno).toBe('ENOENT');
  });

  it('kills the process when the signal fires', async () => {
    const dir = tempDir();
    const marker = join(dir, 'finished');
    const controller = new AbortController();
    const started = Date.now();
    const pending = runProcess(node, script(`setTimeout(() => require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x'), 5000)`), {
      cwd: dir,
      env,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    const r = await pending;
    expect(r.kind === 'exited' && r.cancelled).toBe(true);
    expect(Date.now() - started).toBeLessThan(4000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(marker)).toBe(false);
  });

  it('escalates to SIGKILL when SIGTERM is ignored', async () => {
    const controller = new AbortController();
    const pending = runProcess(
      node,
      script("process.on('SIGTERM', () => {}); process.stdout.write('ready'); setInterval(() => {}, 1000)"),
      { cwd: tempDir(), env, signal: controller.signal, killGraceMs: 50 },
    );
    setTimeout(() => controller.abort(), 500);
    const r = await pending;
    expect(r.kind === 'exited' && r.cancelled).toBe(true);
  });

  it('does not start anything when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    const dir = tempDir();
    const marker = join(dir, 'ran');
    const r = await runProcess(node, script(`require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')`), {
      cwd: dir,
      env,
      signal: controller.signal,
    });
    expect(r.kind).toBe('cancelled');
    expect(existsSync(marker)).toBe(false);
  });
});

describe('runProcess: process trees', () => {
  it('kills the process group when aborted', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'pids');
    const code = `const c = require("child_process").spawn(process.execPath, ["-e", "setTimeout(()=>{}, 60000)"], { stdio: "ignore" }); require("fs").writeFileSync(${JSON.stringify(pidFile)}, process.pid + " " + c.pid); setTimeout(()=>{}, 60000)`;
    const controller = new AbortController();
    const running = runProcess(node, ['-e', code], { cwd: dir, env, signal: controller.signal, maxBytes: 1024 });
    for (let i = 0; i < 100 && !existsSync(pidFile); i += 1) await new Promise((r) => setTimeout(r, 30));
    controller.abort();
    const result = await running;
    expect(result.kind === 'exited' && result.cancelled).toBe(true);
    const pids = readFileSync(pidFile, 'utf8').split(' ').map(Number);
    expect(await survivors(pids)).toEqual([]);
  });

  it('passes only the given environment (plus the tree marker)', async () => {
    const r = await runProcess(
      node,
      ['-e', 'console.log(process.env.AH_ONLY_HERE ?? "none", process.env.HOME ?? "nohome", Boolean(process.env.AH_PROCESS_TREE))'],
      {
        cwd: tempDir(),
        env: { ...env, AH_ONLY_HERE: 'yes' },
      },
    );
    expect(r.kind === 'exited' && r.stdout.toString()).toBe('yes nohome true\n');
  });

  it.skipIf(process.platform !== 'linux')(
    'a setsid descendant holding the pipes cannot hold the call past its deadline, and is killed',
    async () => {
      const dir = tempDir();
      const pidFile = join(dir, 'escaped');
      // The shell starts a new session (out of our process group), records its pid and exits; the
      // escaped sleep keeps stdout open and is re-parented to init.
      const script = `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 30' & echo started`;
      const started = Date.now();
      const r = await runProcess('sh', ['-c', script], { cwd: dir, env, timeoutMs: 1000 });
      const elapsed = Date.now() - started;
      expect(r.kind).toBe('exited');
      if (r.kind !== 'exited') return;
      expect(r.timedOut).toBe(true);
      expect(r.stdout.toString()).toBe('started\n');
      // Bounded: the deadline plus the kill, far below the sleep's 30 s.
      expect(elapsed).toBeLessThan(15_000);
      const escaped = Number(readFileSync(pidFile, 'utf8').trim());
      expect(escaped).toBeGreaterThan(0);
      expect(await survivors([escaped])).toEqual([]);
    },
    30_000,
  );

  it.skipIf(process.platform !== 'linux')(
    'cancel kills descendants that escaped both the group and the parent chain',
    async () => {
      const dir = tempDir();
      const pidFile = join(dir, 'escaped');
      // Double fork + setsid + closed stdio: only the environment marker still ties it to us.
      const script = `(setsid sh -c 'echo $$ > ${pidFile}; exec sleep 30' </dev/null >/dev/null 2>&1 &) ; sleep 30`;
      const controller = new AbortController();
      const running = runProcess('sh', ['-c', script], { cwd: dir, env, signal: controller.signal });
      for (let i = 0; i < 200 && !(existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== ''); i += 1) {
        await new Promise((r) => setTimeout(r, 25));
      }
      const escaped = Number(readFileSync(pidFile, 'utf8').trim());
      expect(isAlive(escaped)).toBe(true);
      controller.abort();
      const r = await running;
      expect(r.kind === 'exited' && r.cancelled).toBe(true);
      expect(await survivors([escaped])).toEqual([]);
    },
    30_000,
  );
});

describe('runProcess: bounded and contained', () => {
  it('never keeps more than the cap, however much a child writes', async () => {
    // 32 MiB through a 1 MiB cap, in tail mode: the last MiB is kept, nothing else is held.
    const r = await runProcess(
      node,
      [
        '-e',
        'const b = Buffer.alloc(1 << 20, 120); for (let i = 0; i < 31; i++) process.stdout.write(b); process.stdout.write(Buffer.alloc(1 << 20, 121))',
      ],
      {
        cwd: tempDir(),
        env,
        maxBytes: 1 << 20,
        keep: 'tail',
      },
    );
    expect(r.kind).toBe('exited');
    if (r.kind !== 'exited') return;
    expect(r.stdout.length).toBe(1 << 20);
    expect(r.stdout.every((b) => b === 121)).toBe(true);
    expect(r.stdoutTruncated).toBe(true);
  }, 30_000);

  it('a callback that throws does not escape to the process', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      const r = await runProcess(node, ['-e', 'process.stdout.write("x".repeat(1000))'], {
        cwd: tempDir(),
        env,
        onOutput: () => {
          throw new Error('boom');
        },
      });
      expect(r.kind === 'exited' && r.stdout.length).toBe(1000);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });
});
