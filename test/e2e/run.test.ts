import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runAh } from '../helpers/cli.js';
import { survivors } from '../helpers/process.js';
import { tempDir } from '../helpers/tmp.js';

const node = process.execPath;

describe('ah run check', () => {
  it('reports a failing child as data and exits 0', async () => {
    const r = await runAh(['--json', 'run', 'check', '--', node, '-e', 'console.log("out"); console.error("err"); process.exit(3)']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      command: 'run.check',
      success: false,
      exit_code: 3,
      timed_out: false,
      stdout: 'out\n',
      stderr: 'err\n',
      stdout_truncated: false,
      stderr_truncated: false,
    });
  });

  it('keeps child flags verbatim after the program', async () => {
    const r = await runAh(['--json', 'run', 'check', node, '-e', 'console.log(process.argv.length)', '--', '--json', '--limit', '3']);
    expect(r.json()).toMatchObject({
      argv: [node, '-e', 'console.log(process.argv.length)', '--', '--json', '--limit', '3'],
      success: true,
    });
  });

  it('drains both streams concurrently with independent caps, keeping the prefix', async () => {
    const script =
      'for (let i = 0; i < 2000; i++) { process.stdout.write("o".repeat(99) + "\\n"); process.stderr.write("e".repeat(99) + "\\n"); }';
    const r = (await runAh(['--json', 'run', 'check', '--max-output-bytes', '1000', '--', node, '-e', script])).json() as Record<
      string,
      unknown
    >;
    expect(r).toMatchObject({ success: true, stdout_truncated: true, stderr_truncated: true });
    expect((r.stdout as string).length).toBe(1000);
    expect((r.stdout as string).startsWith('ooo')).toBe(true);
  });

  it('tail_lines keeps the last lines', async () => {
    const r = (
      await runAh(['--json', 'run', 'check', '--tail-lines', '2', '--', node, '-e', 'for (let i = 1; i <= 10; i++) console.log(i)'])
    ).json();
    expect(r).toMatchObject({ stdout: '9\n10\n', stdout_truncated: true });
  });

  it('kills the whole process tree on timeout (no orphaned grandchild)', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'pids');
    const grandchild = `require("child_process").spawn(process.execPath, ["-e", "setTimeout(()=>{}, 60000)"], { stdio: "ignore" }).pid`;
    const script = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, process.pid + " " + ${grandchild}); setTimeout(()=>{}, 60000)`;
    const r = await runAh(['--json', 'run', 'check', '--timeout-secs', '1', '--', node, '-e', script]);
    expect(r.json()).toMatchObject({ success: false, timed_out: true, exit_code: null });
    const pids = readFileSync(pidFile, 'utf8').split(' ').map(Number);
    expect(pids).toHaveLength(2);
    expect(await survivors(pids)).toEqual([]);
  });

  it('a setsid descendant holding stdout cannot hold the call past its deadline, and is killed', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'escaped');
    // The shape: `sh -c 'setsid sleep … & echo'`, with the escaped sleep's pid recorded.
    const script = `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 60' & echo started`;
    const started = Date.now();
    const r = await runAh(['--json', 'run', 'check', '--timeout-secs', '2', '--', 'sh', '-c', script]);
    const elapsed = Date.now() - started;
    expect(r.json()).toMatchObject({ success: false, timed_out: true, stdout: 'started\n' });
    // Bounded by the deadline, not by the 60 s sleep (a loose bound for a loaded machine).
    expect(elapsed).toBeLessThan(30_000);
    expect(existsSync(pidFile)).toBe(true);
    expect(await survivors([Number(readFileSync(pidFile, 'utf8').trim())])).toEqual([]);
  }, 60_000);

  it('max_output_bytes has a maximum, and a child writing more than it is cut there', async () => {
    const over = await runAh(['--json', 'run', 'check', '--max-output-bytes', String(1024 ** 3), '--', node, '-e', '0']);
    expect(over.code).toBe(1);
    expect(over.errorJson().code).toMatch(/^INVALID_(ARGUMENT|RANGE)$/);
    const max = 16 * 1024 * 1024;
    // 24 MiB of stdout against the 16 MiB ceiling.
    const script = 'const b = Buffer.alloc(1 << 20, 97); for (let i = 0; i < 24; i++) process.stdout.write(b)';
    const r = await runAh(['--json', 'run', 'check', '--max-output-bytes', String(max), '--', node, '-e', script]);
    expect(r.code).toBe(0);
    const out = r.json() as { stdout: string; stdout_truncated: boolean; success: boolean };
    expect(out.success).toBe(true);
    expect(out.stdout.length).toBe(max);
    expect(out.stdout_truncated).toBe(true);
  }, 60_000);

  it('runs in the working directory with stdin closed', async () => {
    const dir = tempDir();
    const r = (
      await runAh([
        '--json',
        '--cwd',
        dir,
        'run',
        'check',
        '--',
        node,
        '-e',
        'let n=0; process.stdin.on("data", d => n += d.length).on("end", () => console.log(process.cwd(), n))',
      ])
    ).json();
    expect(r).toMatchObject({ success: true, stdout: `${dir} 0\n` });
  });

  it('logs the argv with credential-bearing flag values redacted (curl --user)', async () => {
    const { env, configDir } = isolatedEnv();
    const secret = 'hunter2-planted';
    // The child is node, so nothing is sent anywhere; the flags are what a real curl line carries.
    await runAh(['run', 'check', '--', node, '-e', '0', '--user', `bob:${secret}`], { env });
    await runAh(['run', 'check', '--', 'curl', '-s', '--max-time', '1', '--user', `bob:${secret}`, 'http://127.0.0.1:9/'], { env });
    const logs = join(configDir, 'logs');
    const text = readdirSync(logs)
      .map((f) => readFileSync(join(logs, f), 'utf8'))
      .join('');
    expect(text).toContain('bob:[REDACTED]');
    expect(text).not.toContain(secret);
  });

  it('maps a missing program to COMMAND_EXECUTION_FAILED', async () => {
    const r = await runAh(['--json', 'run', 'check', '--', 'definitely-not-a-program-xyz']);
    expect(r.code).toBe(1);
    expect(r.errorJson()).toMatchObject({ code: 'COMMAND_EXECUTION_FAILED' });
    const text = await runAh(['run', 'check', '--', 'definitely-not-a-program-xyz']);
    expect(text.stderr).toContain('Hint: Check that definitely-not-a-program-xyz is installed');
  });

  it('renders a readable summary in text mode', async () => {
    const r = await runAh(['run', 'check', '--', node, '-e', 'console.log("hi")']);
    expect(r.stdout).toMatch(/^ok: .* \(exit 0 in \d+ ms\)\n--- stdout\nhi\n$/);
  });
});
