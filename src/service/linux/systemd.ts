/**
 * The systemd user manager adapter: unit file in $XDG_CONFIG_HOME/systemd/user/, everything else
 * through `systemctl --user`. Linger is never enabled (a privileged, different policy).
 */
import { mkdir, readFile, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { writeFileAtomic } from '../../platform/atomic-write.js';
import type { Env } from '../../platform/paths.js';
import type { ServiceDefinition } from '../definition.js';
import { serviceError } from '../errors.js';
import {
  type RegistrationInfo,
  type Runner,
  type SchedulerAdapter,
  type SchedulerInfo,
  type SchedulerState,
  unreachable,
} from '../scheduler.js';
import { OWNER_KEY, parseUnit, renderUnit, UNIT_NAME } from './unit-file.js';

const SHOW_PROPS = ['LoadState', 'ActiveState', 'SubState', 'MainPID', 'UnitFileState', 'Result', 'ExecMainStatus', 'ExecMainCode'];

const ACTIVE_STATES = new Map<string | undefined, SchedulerState>([
  ['active', 'active'],
  ['reloading', 'active'],
  ['activating', 'activating'],
  ['deactivating', 'deactivating'],
  ['failed', 'failed'],
]);

function stateOf(p: Record<string, string>): SchedulerState {
  if (p.LoadState === 'not-found') return 'not_loaded';
  if (p.ActiveState === 'activating' && p.SubState === 'auto-restart') return 'restart_pending';
  return ACTIVE_STATES.get(p.ActiveState) ?? 'inactive';
}

export class SystemdAdapter implements SchedulerAdapter {
  readonly kind = 'systemd' as const;
  readonly taskPath: string;

  constructor(
    private readonly run: Runner,
    env: Env,
    private readonly serviceId: string,
    private readonly stateDir: string,
  ) {
    const xdg = env.XDG_CONFIG_HOME;
    this.taskPath = join(xdg && isAbsolute(xdg) ? xdg : join(env.HOME || '/', '.config'), 'systemd', 'user', UNIT_NAME);
  }

  expectedProperties(definition: ServiceDefinition): Record<string, string> {
    return parseUnit(renderUnit(definition, this.stateDir));
  }

  async inspect(): Promise<RegistrationInfo> {
    let text: string;
    try {
      text = await readFile(this.taskPath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return { state: 'missing', owned: false, fingerprint: null, properties: null };
      throw serviceError('MCP_SERVICE_STATE_INVALID', `cannot read ${this.taskPath}`, { cause: (error as Error).message });
    }
    const properties = parseUnit(text);
    return { state: 'present', owned: properties[`Unit.${OWNER_KEY}`] === this.serviceId, fingerprint: text, properties };
  }

  /** Runs systemctl --user; a non-zero exit becomes MCP_SERVICE_SCHEDULER_FAILED with systemd's own words. */
  private async systemctl(args: readonly string[]): Promise<string> {
    const result = await this.run('systemctl', ['--user', ...args]);
    if (result.kind !== 'exited') {
      throw serviceError('MCP_SERVICE_SCHEDULER_FAILED', 'systemctl could not be run', {
        cause: result.message,
        hint: 'Install systemd (systemctl) or run the service by hand with `ah mcp serve --transport http`.',
      });
    }
    if (result.code !== 0) {
      const said = result.stderr.trim() || result.stdout.trim() || `exit ${result.code}`;
      throw serviceError('MCP_SERVICE_SCHEDULER_FAILED', `systemctl --user ${args[0]} failed: ${said}`, {
        cause: said,
        hint: 'systemctl --user needs XDG_RUNTIME_DIR and a running user manager (a login session).',
      });
    }
    return result.stdout;
  }

  async query(): Promise<SchedulerInfo> {
    let text: string;
    try {
      text = await this.systemctl(['show', UNIT_NAME, ...SHOW_PROPS.map((p) => `--property=${p}`)]);
    } catch (error) {
      return unreachable((error as { detail?: string }).detail ?? (error as Error).message);
    }
    const p: Record<string, string> = {};
    for (const line of text.split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) p[line.slice(0, eq)] = line.slice(eq + 1);
    }
    const pid = Number(p.MainPID ?? 0);
    const status = Number(p.ExecMainStatus ?? '');
    const ran = p.ExecMainCode !== undefined && p.ExecMainCode !== '0';
    return {
      reachable: true,
      message: null,
      state: stateOf(p),
      main_pid: pid > 0 ? pid : null,
      enabled: p.UnitFileState === undefined || p.UnitFileState === '' ? null : p.UnitFileState === 'enabled',
      last_result: p.Result ?? null,
      last_exit_code: ran && Number.isInteger(status) ? status : null,
    };
  }

  async register(definition: ServiceDefinition): Promise<void> {
    await mkdir(dirname(this.taskPath), { recursive: true });
    await writeFileAtomic(this.taskPath, renderUnit(definition, this.stateDir), 0o644);
    await this.systemctl(['daemon-reload']);
    await this.systemctl(['enable', UNIT_NAME]);
  }

  async start(): Promise<void> {
    // A unit that hit its start limit (a crash loop) refuses to start until reset.
    await this.systemctl(['reset-failed', UNIT_NAME]).catch(() => undefined);
    await this.systemctl(['start', UNIT_NAME]);
  }

  async stop(): Promise<void> {
    await this.systemctl(['stop', '--no-block', UNIT_NAME]);
  }

  async unregister(fingerprint: string): Promise<void> {
    const now = await this.inspect();
    if (now.fingerprint !== fingerprint) {
      throw serviceError('MCP_SERVICE_TASK_CHANGED', `${this.taskPath} changed while uninstalling; nothing was removed`, {
        hint: 'Run `ah mcp service status`, then uninstall again.',
      });
    }
    await this.systemctl(['disable', UNIT_NAME]);
    await unlink(this.taskPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await this.systemctl(['daemon-reload']);
    await this.systemctl(['reset-failed', UNIT_NAME]).catch(() => undefined);
  }
}
