/**
 * Contract tests of the Task Scheduler adapter and the shared lifecycle against a faithful fake of
 * the scheduler: exact schtasks / PowerShell / whoami command lines in, their replies out.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { ServiceContext } from '../context.js';
import type { ServiceDefinition } from '../definition.js';
import { install, restart, stop, uninstall } from '../operations.js';
import type { Runner } from '../scheduler.js';
import { serviceContext } from '../select.js';
import { StateStore } from '../state.js';
import { status } from '../status.js';
import { TaskSchedulerAdapter } from './task-scheduler.js';

const SID = 'S-1-5-21-1111-2222-3333-1001';
const TASK = `\\AIHelper Managed MCP - ${SID}`;
const NOT_FOUND = 'ERROR: The system cannot find the file specified.\r\n';

/** The scheduler and the one process it may run, as the adapter and lifecycle see them. */
class FakeWindows {
  readonly calls: string[] = [];
  task: string | null = null;
  server: { pid: number; instance_id: string; alive: boolean } | null = null;
  /** The process ignores control shutdown (and, with `survivesEnd`, schtasks /End too). */
  ignoreShutdown = false;
  survivesEnd = false;
  deleteFails = false;
  /** The launcher is waiting between relaunches: the task runs while no server does. */
  launcherWaiting = false;
  /** Called on every /Query, to change the task behind the controller's back. */
  onQuery: (() => void) | null = null;
  private nextPid = 4000;

  constructor(private readonly store: StateStore) {}

  runner: Runner = async (program, args) => {
    this.calls.push([program, ...args].join(' '));
    const ok = (stdout = '') => ({ kind: 'exited' as const, code: 0, stdout, stderr: '' });
    const fail = (stderr: string) => ({ kind: 'exited' as const, code: 1, stdout: '', stderr });
    if (program === 'whoami') return ok(`"DESKTOP\\\\dev","${SID}"\r\n`);
    if (program === 'powershell.exe') {
      const state = this.task === null ? 'NotFound' : this.server?.alive || this.launcherWaiting ? 'Running' : 'Ready';
      return ok(JSON.stringify(state === 'NotFound' ? { State: state } : { State: state, LastTaskResult: 0 }));
    }
    if (program !== 'schtasks' || args[2] !== TASK) return fail('ERROR: Invalid syntax.');
    switch (args[0]) {
      case '/Query':
        this.onQuery?.();
        return this.task === null ? fail(NOT_FOUND) : ok(this.task);
      case '/Create': {
        const raw = readFileSync(args[4] as string);
        expect([raw[0], raw[1]]).toEqual([0xff, 0xfe]);
        this.task = raw.subarray(2).toString('utf16le');
        return ok('SUCCESS: The scheduled task has been successfully created.\r\n');
      }
      case '/Run':
        if (this.task === null) return fail(NOT_FOUND);
        await this.launch();
        return ok('SUCCESS: Attempted to run the scheduled task.\r\n');
      case '/End':
        if (this.server && !this.survivesEnd) this.server.alive = false;
        return ok('SUCCESS: The scheduled task was terminated.\r\n');
      case '/Delete':
        if (this.deleteFails) return fail('ERROR: Access is denied.\r\n');
        this.task = null;
        return ok('SUCCESS: The scheduled task was successfully deleted.\r\n');
      default:
        return fail('ERROR: Invalid syntax.');
    }
  };

  /** What the managed server does once ready: runtime.json with its identity. */
  private async launch(): Promise<void> {
    if (this.server?.alive) return;
    const current = await this.store.readCurrent();
    if (current.kind !== 'ok') return;
    const def = await this.store.readDefinition(current.value.configuration_id);
    if (def.kind !== 'ok') return;
    this.server = { pid: this.nextPid++, instance_id: randomUUID(), alive: true };
    await this.store.writeRuntime({
      schema_version: 1,
      service_id: def.value.service_id,
      configuration_id: current.value.configuration_id,
      pid: this.server.pid,
      instance_id: this.server.instance_id,
      version: '9.9.9',
      port: def.value.port,
      started_at: new Date().toISOString(),
      ready_at: new Date().toISOString(),
      exit: null,
    });
  }

  context(stateDir: string): ServiceContext {
    const adapter = new TaskSchedulerAdapter(this.runner, SID, 'ah-mcp-test', stateDir, 'C:\\Windows');
    return {
      adapter,
      store: this.store,
      serviceId: 'ah-mcp-test',
      platform: 'win32',
      env: {},
      version: '9.9.9',
      timing: { startMs: 500, stopGraceMs: 40, stopDeadlineMs: 200, pollMs: 5 },
      schedulerKnowsPid: false,
      probe: async () =>
        this.server?.alive
          ? { kind: 'ready', version: '9.9.9', pid: this.server.pid, instance_id: this.server.instance_id }
          : { kind: 'none' },
      shutdown: async (_port, id) => {
        if (!this.server?.alive || id !== this.server.instance_id) return 409;
        if (!this.ignoreShutdown) this.server.alive = false;
        return 202;
      },
      isAlive: (pid) => this.server?.pid === pid && this.server.alive,
      fileExists: () => true,
      lock: async () => ({ release: () => undefined }),
      leaseHeld: async () => this.server?.alive === true,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      now: () => Date.now(),
    };
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const stateDir = mkdtempSync(join(tmpdir(), 'ah-win-'));
  dirs.push(stateDir);
  const store = new StateStore(stateDir);
  const fake = new FakeWindows(store);
  const ctx = fake.context(stateDir);
  const definition: ServiceDefinition = {
    schema_version: 1,
    service_id: 'ah-mcp-test',
    platform: 'win32',
    cwd: null,
    limit: null,
    port: 8787,
    max_active: 32,
    default_timeout_ms: 300000,
    config_dir: 'C:\\Users\\dev\\AppData\\Roaming\\AIHelper',
    ah_path: 'C:\\Program Files\\ah\\bin\\ah.js',
    node_path: 'C:\\Program Files\\nodejs\\node.exe',
    restart_delay_sec: 60,
  };
  return { fake, ctx, definition, stateDir };
}

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string }) => e.code,
  );

describe('Task Scheduler adapter (fake scheduler)', () => {
  test('install registers the canonical task through schtasks /XML and waits for readiness; repeat is unchanged', async () => {
    const { fake, ctx, definition } = setup();
    const first = await install(ctx, definition, false);
    expect(first).toMatchObject({ action: 'installed', changed: true, task_path: TASK, runtime: { state: 'running' } });
    // Inspect, re-check ownership right before /Create, create from XML, run.
    expect(fake.calls.filter((c) => c.startsWith('schtasks'))).toEqual([
      `schtasks /Query /TN ${TASK} /XML`,
      `schtasks /Query /TN ${TASK} /XML`,
      expect.stringMatching(new RegExp(`^schtasks /Create /TN ${TASK.replaceAll('\\', '\\\\')} /XML .+\\.xml /F$`)),
      `schtasks /Run /TN ${TASK}`,
    ]);
    const xml = fake.task ?? '';
    for (const part of [
      '<LogonTrigger><Enabled>true</Enabled><UserId>S-1-5-21-1111-2222-3333-1001</UserId></LogonTrigger>',
      '<LogonType>InteractiveToken</LogonType><RunLevel>LeastPrivilege</RunLevel>',
      '<MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>',
      '<ExecutionTimeLimit>PT0S</ExecutionTimeLimit>',
      '<DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>',
      '<Command>C:\\Windows\\System32\\conhost.exe</Command>',
      '[ah-service-id:ah-mcp-test]',
      // The launcher owns the relaunch policy (three relaunches, restart_delay_sec apart).
      '&quot;AH_MANAGED_LAUNCHER=1&quot;',
      '&quot;AH_MANAGED_RESTART_SEC=60&quot;',
    ]) {
      expect(xml).toContain(part);
    }
    expect(xml).not.toContain('RestartOnFailure');
    expect(xml).not.toContain('Password');
    fake.calls.length = 0;
    const again = await install(ctx, definition, false);
    expect(again).toMatchObject({ action: 'unchanged', changed: false });
    expect(fake.calls.some((c) => c.includes('/Create') || c.includes('/Run'))).toBe(false);
  });

  test('a crashed server while the launcher waits to relaunch it is restart_backoff', async () => {
    const { fake, ctx, definition } = setup();
    await install(ctx, definition, false);
    if (fake.server) fake.server.alive = false;
    fake.launcherWaiting = true;
    const waiting = await status(ctx);
    expect(waiting.runtime.state).toBe('restart_backoff');
    fake.launcherWaiting = false;
    expect((await status(ctx)).runtime.state).toBe('failed');
  });

  test('drift is semantic: defaults and formatting are not drift, a changed property is', async () => {
    const { fake, ctx, definition } = setup();
    await install(ctx, definition, true);
    // Equivalent: whitespace and an omitted element whose scheduler default equals ours.
    fake.task = (fake.task ?? '').replaceAll('\r\n', '\n    ').replace('<Enabled>true</Enabled>\r\n  </Settings>', '</Settings>');
    expect((await status(ctx)).drift).toEqual([]);
    fake.task = (fake.task ?? '').replace('<ExecutionTimeLimit>PT0S</ExecutionTimeLimit>', '');
    const snap = await status(ctx);
    expect(snap.registration.state).toBe('drifted');
    expect(snap.drift).toEqual([{ field: 'settings.execution_time_limit', expected: 'pt0s', actual: 'pt72h' }]);
    expect(await codeOf(stop(ctx))).toBe('MCP_SERVICE_STOP_UNSAFE');
  });

  test('a task without the ownership marker is never overwritten or deleted', async () => {
    const { fake, ctx, definition } = setup();
    fake.task = '<Task><RegistrationInfo><Source>Someone</Source></RegistrationInfo></Task>';
    expect(await codeOf(install(ctx, definition, false))).toBe('MCP_SERVICE_TASK_CONFLICT');
    expect(await codeOf(uninstall(ctx))).toBe('MCP_SERVICE_TASK_CONFLICT');
    expect(fake.calls.some((c) => c.includes('/Create') || c.includes('/Delete'))).toBe(false);
  });

  test('stop: control shutdown first; /End only for a revalidated instance; then a timeout', async () => {
    const { fake, ctx, definition } = setup();
    await install(ctx, definition, false);
    expect(await stop(ctx)).toMatchObject({ action: 'stopped', changed: true });
    expect(fake.calls.some((c) => c.startsWith('schtasks /End'))).toBe(false);
    expect(await stop(ctx)).toMatchObject({ action: 'already_stopped', changed: false });

    await restart(ctx);
    fake.ignoreShutdown = true;
    expect(await stop(ctx)).toMatchObject({ action: 'forced_stopped' });
    expect(fake.calls).toContain(`schtasks /End /TN ${TASK}`);

    await restart(ctx);
    fake.survivesEnd = true;
    expect(await codeOf(stop(ctx))).toBe('MCP_SERVICE_STOP_TIMEOUT');

    fake.survivesEnd = false;
    // The task changes between the identity proof and the /End: the manager is not asked.
    let queries = 0;
    fake.onQuery = () => {
      queries += 1;
      if (queries === 2) fake.task = (fake.task ?? '').replace('</Description>', ' edited</Description>');
    };
    fake.calls.length = 0;
    expect(await codeOf(stop(ctx))).toBe('MCP_SERVICE_TASK_CHANGED');
    expect(fake.calls.some((c) => c.startsWith('schtasks /End'))).toBe(false);
  });

  test('uninstall deletes only the unchanged owned task; failures are UNINSTALL_INCOMPLETE or TASK_CHANGED', async () => {
    const { fake, ctx, definition, stateDir } = setup();
    await install(ctx, definition, false);
    fake.deleteFails = true;
    expect(await codeOf(uninstall(ctx))).toBe('MCP_SERVICE_UNINSTALL_INCOMPLETE');
    expect(fake.task).not.toBeNull();
    fake.deleteFails = false;
    let queries = 0;
    fake.onQuery = () => {
      queries += 1;
      if (queries === 2) fake.task = `${fake.task ?? ''}\n<!-- touched -->`;
    };
    expect(await codeOf(uninstall(ctx))).toBe('MCP_SERVICE_TASK_CHANGED');
    fake.onQuery = null;
    expect(await uninstall(ctx)).toMatchObject({ action: 'uninstalled', changed: true });
    expect(fake.calls).toContain(`schtasks /Delete /TN ${TASK} /F`);
    expect(fake.task).toBeNull();
    expect((await new StateStore(stateDir).readCurrent()).kind).toBe('missing');
    expect(await uninstall(ctx)).toMatchObject({ action: 'already_uninstalled', service_id: null, endpoint: null });
  });

  test('the live context resolves the user SID with whoami; macOS is unsupported', async () => {
    const { fake } = setup();
    const ctx = await serviceContext({ LOCALAPPDATA: 'C:\\Users\\dev\\AppData\\Local' }, '9.9.9', 'op', {
      platform: 'win32',
      runner: fake.runner,
    });
    expect(ctx.adapter.taskPath).toBe(TASK);
    expect(fake.calls[0]).toBe('whoami /user /fo csv /nh');
    expect(await codeOf(serviceContext({}, '9.9.9', 'op', { platform: 'darwin' }))).toBe('MCP_SERVICE_UNSUPPORTED_PLATFORM');
  });
});
