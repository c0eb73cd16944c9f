/**
 * `ah mcp service` against a real systemd user manager (one sandboxed manager per test, own HOME,
 * XDG dirs and AH_CONFIG_DIR). Relaunch spacing is shortened to 1 s by an internal knob.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { serviceContext } from '../../src/service/select.js';
import { status } from '../../src/service/status.js';
import { AH_BIN } from '../helpers/cli.js';
import { startHttpServer } from '../helpers/http.js';
import { holdLockProcess } from '../helpers/lock-holder.js';
import { isAlive, survivors } from '../helpers/process.js';
import { SYSTEMD_USER_MANAGER, unavailable } from '../helpers/requires.js';
import { onCleanup, runtimeJson, type ServiceEnv, service, serviceEnv } from '../helpers/service.js';
import { tempDir } from '../helpers/tmp.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

async function readiness(port: number): Promise<Record<string, unknown>> {
  const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
  return (await res.json()) as Record<string, unknown>;
}

async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function code(run: { errorJson: () => Record<string, unknown> }): unknown {
  return run.errorJson().code;
}

async function installed(s: ServiceEnv, extra: string[] = []) {
  const r = await service(s, ['install', '--port', String(s.port), ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return r.json<Record<string, any>>();
}

/** A process holding a state lock for `seconds` once it has it, killed after the test. */
async function holdLock(path: string, wait: boolean, seconds = 60): Promise<ChildProcess> {
  const child = await holdLockProcess(path, wait, seconds);
  onCleanup(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // Already gone.
    }
  });
  return child;
}

const SUITE = 'managed MCP service on a real systemd user manager';

describe.skipIf(unavailable(SUITE, SYSTEMD_USER_MANAGER))(SUITE, () => {
  test('install waits for exact readiness; a repeated install is unchanged; uninstall twice', async () => {
    const s = await serviceEnv();
    const first = await installed(s);
    expect(Object.keys(first)).toEqual([
      'command',
      'schema_version',
      'changed',
      'action',
      'service_id',
      'configuration_id',
      'task_path',
      'endpoint',
      'registration',
      'runtime',
    ]);
    expect(first).toMatchObject({ command: 'install', schema_version: 1, changed: true, action: 'installed', task_path: s.unitPath });
    expect(first.endpoint).toBe(`http://127.0.0.1:${s.port}/mcp`);
    const ready = await readiness(s.port);
    expect(ready).toMatchObject({ status: 'ready', version: VERSION, pid: first.runtime.pid, instance_id: first.runtime.instance_id });
    expect(runtimeJson(s)).toMatchObject({ pid: first.runtime.pid, configuration_id: first.configuration_id, exit: null });
    const unit = readFileSync(s.unitPath, 'utf8');
    expect(unit).toContain('WantedBy=default.target');
    expect(unit).toContain(`X-AIHelper-Service-Id=${first.service_id}`);
    expect(existsSync(join(s.unitPath, '..', 'default.target.wants', 'aihelper-managed-mcp.service'))).toBe(true);

    const again = await installed(s);
    expect(again).toMatchObject({ changed: false, action: 'unchanged', configuration_id: first.configuration_id });
    expect(again.runtime.instance_id).toBe(first.runtime.instance_id);

    const quiet = await service(s, ['status', '--quiet']);
    expect([quiet.code, quiet.stdout]).toEqual([0, '']);

    const gone = await service(s, ['uninstall']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.json()).toMatchObject({
      command: 'uninstall',
      changed: true,
      action: 'uninstalled',
      configuration_id: first.configuration_id,
    });
    expect(await survivors([first.runtime.pid])).toEqual([]);
    expect(existsSync(s.unitPath)).toBe(false);
    for (const f of ['current.json', 'runtime.json', 'lifecycle.json']) expect(existsSync(join(s.stateDir, f))).toBe(false);
    // Locks exist only while held: nothing holds them once the service is gone.
    for (const f of ['lifecycle.lock', 'instance.lock']) expect(existsSync(join(s.stateDir, f))).toBe(false);
    const twice = await service(s, ['uninstall']);
    expect(twice.json()).toMatchObject({
      changed: false,
      action: 'already_uninstalled',
      service_id: null,
      configuration_id: null,
      endpoint: null,
    });
  });

  test('--no-start, start/stop/restart with new instance ids, restart required after a changed definition', async () => {
    const s = await serviceEnv();
    const reg = await installed(s, ['--no-start']);
    expect(reg).toMatchObject({ changed: true, action: 'installed', runtime: { state: 'stopped', pid: null } });
    expect((await service(s, ['status'])).json()).toMatchObject({ registration: { state: 'installed' }, runtime: { state: 'stopped' } });
    const started = (await service(s, ['start'])).json<Record<string, any>>();
    expect(started).toMatchObject({ command: 'start', changed: true, action: 'started' });
    expect((await service(s, ['start'])).json()).toMatchObject({ changed: false, action: 'already_running' });
    const stopped = await service(s, ['stop']);
    expect(stopped.json()).toMatchObject({ changed: true, action: 'stopped', runtime: { state: 'stopped' } });
    expect(await survivors([started.runtime.pid])).toEqual([]);
    expect(runtimeJson(s).exit).toMatchObject({ code: 0 });
    expect((await service(s, ['stop'])).json()).toMatchObject({ changed: false, action: 'already_stopped' });
    const second = (await service(s, ['start'])).json<Record<string, any>>();
    expect(second.runtime.instance_id).not.toBe(started.runtime.instance_id);
    const restarted = (await service(s, ['restart'])).json<Record<string, any>>();
    expect(restarted).toMatchObject({ command: 'restart', action: 'restarted' });
    expect(restarted.runtime.instance_id).not.toBe(second.runtime.instance_id);

    const updated = await installed(s, ['--no-start', '--max-active', '4']);
    expect(updated).toMatchObject({ changed: true, action: 'updated', runtime: { state: 'running' } });
    expect(updated.configuration_id).not.toBe(reg.configuration_id);
    const snap = (await service(s, ['status'])).json<Record<string, any>>();
    expect(snap.runtime).toMatchObject({ state: 'restart_required', diagnostic_code: 'MCP_SERVICE_RESTART_REQUIRED' });
    expect(code(await service(s, ['start']))).toBe('MCP_SERVICE_RESTART_REQUIRED');
    const applied = (await service(s, ['restart'])).json<Record<string, any>>();
    expect(applied.runtime.configuration_id).toBe(updated.configuration_id);
    await service(s, ['uninstall']);
  });

  test('kill -9 is relaunched (restart_backoff in between) at most three times', async () => {
    const s = await serviceEnv();
    const first = await installed(s);
    const ctx = await serviceContext(s.env, VERSION, 'test');
    let pid = first.runtime.pid as number;
    let instance = first.runtime.instance_id as string;
    for (let relaunch = 1; relaunch <= 3; relaunch += 1) {
      process.kill(pid, 'SIGKILL');
      if (relaunch === 1) {
        const snap = await until('restart_backoff', async () => {
          const st = await status(ctx);
          return st.runtime.state === 'restart_backoff' ? st : undefined;
        });
        expect(snap.scheduler.state).toBe('restart_pending');
      }
      const next = await until('a relaunched instance', () => {
        const rt = existsSync(join(s.stateDir, 'runtime.json')) ? runtimeJson(s) : undefined;
        return rt && rt.instance_id !== instance && rt.exit === null ? rt : undefined;
      });
      expect((await readiness(s.port)).instance_id).toBe(next.instance_id);
      pid = next.pid;
      instance = next.instance_id;
    }
    process.kill(pid, 'SIGKILL');
    const failed = await until('the crash loop to end', async () => {
      const st = await status(ctx);
      return st.scheduler.state === 'failed' ? st : undefined;
    });
    expect(failed.runtime.state).toBe('failed');
    await new Promise((r) => setTimeout(r, 1500));
    expect(runtimeJson(s).instance_id).toBe(instance);
    // An explicit start clears the manager's start limit.
    expect((await service(s, ['start'])).json()).toMatchObject({ action: 'started' });
    await service(s, ['uninstall']);
  }, 90_000);

  test('a hand-edited unit is reported as drift; stop and start refuse; install restores it', async () => {
    const s = await serviceEnv();
    const first = await installed(s);
    writeFileSync(s.unitPath, readFileSync(s.unitPath, 'utf8').replace('Restart=on-failure', 'Restart=always'));
    const snap = (await service(s, ['status'])).json<Record<string, any>>();
    expect(snap.registration).toMatchObject({ state: 'drifted', diagnostic_code: 'MCP_SERVICE_CONFIGURATION_DRIFT' });
    expect(snap.drift).toEqual([{ field: 'Service.Restart', expected: 'on-failure', actual: 'always' }]);
    expect(code(await service(s, ['stop']))).toBe('MCP_SERVICE_STOP_UNSAFE');
    expect(code(await service(s, ['start']))).toBe('MCP_SERVICE_CONFIGURATION_DRIFT');
    expect(isAlive(first.runtime.pid)).toBe(true);
    expect(await installed(s)).toMatchObject({ action: 'updated', runtime: { instance_id: first.runtime.instance_id } });
    expect((await service(s, ['status'])).json()).toMatchObject({ drift: [], registration: { state: 'installed' } });
    expect((await service(s, ['stop'])).json()).toMatchObject({ action: 'stopped' });
    await service(s, ['uninstall']);
  });

  test('a foreign server on the port is never adopted or stopped', async () => {
    const s = await serviceEnv();
    const foreign = await startHttpServer({ port: s.port, env: { ...s.env, AH_CONFIG_DIR: join(s.root, 'other') } });
    onCleanup(() => foreign.stop());
    const refused = await service(s, ['install', '--port', String(s.port)]);
    expect(code(refused)).toBe('MCP_SERVICE_INSTALLATION_CONFLICT');
    expect(existsSync(s.unitPath)).toBe(false);
    await installed(s, ['--no-start']);
    expect(code(await service(s, ['start']))).toBe('MCP_SERVICE_IDENTITY_MISMATCH');
    // Nothing of ours runs, so stop has nothing to do and leaves the foreign server alone.
    expect((await service(s, ['stop'])).json()).toMatchObject({ action: 'already_stopped' });
    expect((await service(s, ['status'])).json()).toMatchObject({
      readiness: { state: 'mismatch', diagnostic_code: 'MCP_SERVICE_IDENTITY_MISMATCH' },
    });
    expect(isAlive(foreign.child.pid as number)).toBe(true);
    await foreign.stop();
    // A non-ah HTTP server is just as foreign.
    const plain = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((r) => plain.listen(s.port, '127.0.0.1', r));
    onCleanup(() => new Promise<void>((r) => plain.close(() => r())));
    expect(code(await service(s, ['start']))).toBe('MCP_SERVICE_IDENTITY_MISMATCH');
    expect((await service(s, ['uninstall'])).json()).toMatchObject({ action: 'uninstalled' });
  });

  test('a foreign unit file is never overwritten or removed', async () => {
    const s = await serviceEnv();
    const text = '[Service]\nExecStart=/bin/true\n';
    writeFileSync(s.unitPath, text);
    expect(code(await service(s, ['install', '--port', String(s.port)]))).toBe('MCP_SERVICE_TASK_CONFLICT');
    expect((await service(s, ['status'])).json()).toMatchObject({
      registration: { state: 'conflict', diagnostic_code: 'MCP_SERVICE_TASK_CONFLICT' },
    });
    expect(code(await service(s, ['uninstall']))).toBe('MCP_SERVICE_TASK_CONFLICT');
    expect(readFileSync(s.unitPath, 'utf8')).toBe(text);
  });

  test('concurrent lifecycle commands: one wins, the other is MCP_SERVICE_BUSY', async () => {
    const s = await serviceEnv();
    await installed(s);
    // A restart takes about half a second and a second command waits 0.3 s for the lifecycle lock,
    // so two restarts started together may not overlap at all. Here the winner's new instance
    // waits 1.5 s for the instance lease (taken the moment the old instance lets go), and the other
    // command starts 0.2 s after the first: whichever gets the lock holds it far longer than the
    // other waits.
    await holdLock(join(s.stateDir, 'instance.lock'), true, 1.5);
    const first = service(s, ['restart']);
    await new Promise((r) => setTimeout(r, 200));
    const results = await Promise.all([first, service(s, ['restart'])]);
    const codes = results.map((r) => r.code).sort();
    expect(codes).toEqual([0, 1]);
    const loser = results.find((r) => r.code === 1);
    expect(loser?.errorJson()).toMatchObject({ code: 'MCP_SERVICE_BUSY' });
    await service(s, ['uninstall']);
  });

  test('start timeout and restart failure while another process holds the instance lease', async () => {
    const s = await serviceEnv({ extra: { AH_INTERNAL_SERVICE_START_TIMEOUT_MS: '2500' } });
    await installed(s, ['--no-start']);
    const holder = await holdLock(join(s.stateDir, 'instance.lock'), false);
    await new Promise((r) => setTimeout(r, 200));
    expect(code(await service(s, ['start']))).toBe('MCP_SERVICE_START_TIMEOUT');
    process.kill(-(holder.pid as number), 'SIGKILL');
    // The pending relaunch may already have taken the freed lease.
    expect(['started', 'already_running']).toContain((await service(s, ['start'])).json().action);
    // The holder waits for the lease and takes it the moment the old instance lets go.
    await holdLock(join(s.stateDir, 'instance.lock'), true);
    const failed = await service(s, ['restart']);
    expect(failed.errorJson()).toMatchObject({ code: 'MCP_SERVICE_RESTART_FAILED' });
    expect(existsSync(s.unitPath)).toBe(true);
  });

  test('missing worker, invalid state, and status/install with no reachable manager', async () => {
    const s = await serviceEnv();
    const dir = tempDir('ah-worker-');
    const wrapper = join(dir, 'ah.mjs');
    writeFileSync(wrapper, `await import(${JSON.stringify(AH_BIN)});\n`);
    const viaWrapper = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [wrapper, 'mcp', 'service', 'install', '--port', String(s.port), '--no-start', '--json'], {
        env: s.env,
        stdio: 'ignore',
      });
      child.on('close', resolve);
    });
    expect(viaWrapper).toBe(0);
    rmSync(wrapper);
    expect(code(await service(s, ['start']))).toBe('MCP_SERVICE_WORKER_MISSING');

    writeFileSync(join(s.stateDir, 'current.json'), '{not json');
    expect(code(await service(s, ['start']))).toBe('MCP_SERVICE_STATE_INVALID');
    const snap = await service(s, ['status']);
    expect(snap.code).toBe(0);
    expect(snap.json()).toMatchObject({ registration: { state: 'invalid', diagnostic_code: 'MCP_SERVICE_STATE_INVALID' } });
    expect((await installed(s, ['--no-start'])).action).toBe('updated');

    const lonely = await serviceEnv({ manager: false });
    expect(code(await service(lonely, ['start']))).toBe('MCP_SERVICE_NOT_INSTALLED');
    const st = await service(lonely, ['status']);
    expect(st.code).toBe(0);
    const body = st.json<Record<string, any>>();
    expect(body.scheduler).toMatchObject({ state: 'unreachable', diagnostic_code: 'MCP_SERVICE_SCHEDULER_FAILED' });
    expect(body.scheduler.message).toMatch(/Failed to connect to bus/);
    const refused = await service(lonely, ['install', '--port', String(lonely.port)]);
    expect(refused.errorJson()).toMatchObject({ code: 'MCP_SERVICE_SCHEDULER_FAILED' });
    expect(String(refused.errorJson().message)).toMatch(/Failed to connect to bus/);
    expect(existsSync(lonely.unitPath)).toBe(false);
  });
});
