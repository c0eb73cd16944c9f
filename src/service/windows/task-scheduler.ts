/**
 * The Task Scheduler adapter (Windows; untested on real Windows). Registration, run, end and
 * delete go through `schtasks` with task XML; the state query goes through the ScheduledTasks
 * PowerShell module because its JSON is not localised the way schtasks' tables are.
 */
import { randomBytes } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../platform/atomic-write.js';
import type { ServiceDefinition } from '../definition.js';
import { serviceError } from '../errors.js';
import { type RegistrationInfo, type Runner, type SchedulerAdapter, type SchedulerInfo, unreachable } from '../scheduler.js';
import { ownershipMarker, parseTaskXml, renderTaskXml, TASK_SOURCE, taskName } from './task-definition.js';

/** The current user's SID from `whoami /user /fo csv /nh` ("DOMAIN\\user","S-1-5-…"). */
export async function currentUserSid(run: Runner): Promise<string> {
  const result = await run('whoami', ['/user', '/fo', 'csv', '/nh']);
  const sid = result.kind === 'exited' && result.code === 0 ? /"(S-1-[0-9-]+)"/.exec(result.stdout)?.[1] : undefined;
  if (!sid) {
    throw serviceError('MCP_SERVICE_SCHEDULER_FAILED', 'could not determine the current user SID', {
      cause: result.kind === 'exited' ? result.stderr.trim() || result.stdout.trim() : result.message,
    });
  }
  return sid;
}

export class TaskSchedulerAdapter implements SchedulerAdapter {
  readonly kind = 'task-scheduler' as const;
  readonly taskPath: string;
  private readonly name: string;

  constructor(
    private readonly run: Runner,
    private readonly sid: string,
    private readonly serviceId: string,
    private readonly stateDir: string,
    private readonly systemRoot: string,
  ) {
    this.name = taskName(sid);
    this.taskPath = `\\${this.name}`;
  }

  expectedProperties(definition: ServiceDefinition): Record<string, string> {
    return parseTaskXml(renderTaskXml(definition, this.stateDir, this.sid, this.systemRoot));
  }

  private async exec(program: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const result = await this.run(program, args);
    if (result.kind !== 'exited') {
      throw serviceError('MCP_SERVICE_SCHEDULER_FAILED', `${program} could not be run`, { cause: result.message });
    }
    return result;
  }

  private async schtasks(args: readonly string[]): Promise<string> {
    const r = await this.exec('schtasks', args);
    if (r.code !== 0) {
      const said = r.stderr.trim() || r.stdout.trim() || `exit ${r.code}`;
      throw serviceError('MCP_SERVICE_SCHEDULER_FAILED', `schtasks ${args[0]} failed: ${said}`, { cause: said });
    }
    return r.stdout;
  }

  async inspect(): Promise<RegistrationInfo> {
    const r = await this.exec('schtasks', ['/Query', '/TN', this.taskPath, '/XML']);
    if (r.code !== 0) {
      // schtasks reports a missing task as an error; any other failure is the scheduler's.
      if (/cannot find|does not exist/i.test(r.stderr)) return { state: 'missing', owned: false, fingerprint: null, properties: null };
      throw serviceError('MCP_SERVICE_SCHEDULER_FAILED', `schtasks /Query failed: ${r.stderr.trim()}`, { cause: r.stderr.trim() });
    }
    const properties = parseTaskXml(r.stdout);
    const owned = properties['owner.marker'] === this.serviceId && properties['registration.source'] === TASK_SOURCE;
    return { state: 'present', owned, fingerprint: r.stdout, properties };
  }

  async query(): Promise<SchedulerInfo> {
    const script = [
      `$t = Get-ScheduledTask -TaskPath '\\' -TaskName '${this.name}' -ErrorAction SilentlyContinue;`,
      'if ($null -eq $t) { \'{"State":"NotFound"}\' } else {',
      '$i = $t | Get-ScheduledTaskInfo;',
      '[pscustomobject]@{ State = [string]$t.State; LastTaskResult = $i.LastTaskResult } | ConvertTo-Json -Compress }',
    ].join(' ');
    const r = await this.run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', script]);
    if (r.kind !== 'exited') return unreachable(r.message);
    if (r.code !== 0) return unreachable(r.stderr.trim() || `exit ${r.code}`);
    let v: { State?: string; LastTaskResult?: number };
    try {
      v = JSON.parse(r.stdout.trim()) as typeof v;
    } catch {
      return unreachable(`unexpected reply: ${r.stdout.trim().slice(0, 200)}`);
    }
    // Ready, Disabled and anything unknown are inactive.
    const states: Record<string, SchedulerInfo['state']> = { Running: 'active', Queued: 'activating', NotFound: 'not_loaded' };
    const code = typeof v.LastTaskResult === 'number' ? v.LastTaskResult : null;
    return {
      reachable: true,
      message: null,
      state: states[v.State ?? ''] ?? 'inactive',
      main_pid: null,
      enabled: v.State === 'NotFound' ? null : v.State !== 'Disabled',
      last_result: code === null ? null : code === 0 ? 'success' : 'exit-code',
      last_exit_code: code,
    };
  }

  async register(definition: ServiceDefinition): Promise<void> {
    const current = await this.inspect();
    if (current.state === 'present' && !current.owned) {
      throw serviceError('MCP_SERVICE_TASK_CONFLICT', `${this.taskPath} exists without the marker ${ownershipMarker(this.serviceId)}`);
    }
    const xml = renderTaskXml(definition, this.stateDir, this.sid, this.systemRoot);
    // schtasks reads task XML as UTF-16 (the declaration says so): BOM + UTF-16LE.
    const file = join(this.stateDir, `.task-${randomBytes(4).toString('hex')}.xml`);
    await writeFileAtomic(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]));
    try {
      await this.schtasks(['/Create', '/TN', this.taskPath, '/XML', file, '/F']);
    } finally {
      await unlink(file).catch(() => undefined);
    }
  }

  async start(): Promise<void> {
    await this.schtasks(['/Run', '/TN', this.taskPath]);
  }

  async stop(): Promise<void> {
    await this.schtasks(['/End', '/TN', this.taskPath]);
  }

  async unregister(fingerprint: string): Promise<void> {
    const now = await this.inspect();
    if (now.fingerprint !== fingerprint || !now.owned) {
      throw serviceError('MCP_SERVICE_TASK_CHANGED', `${this.taskPath} changed while uninstalling; nothing was removed`);
    }
    await this.schtasks(['/Delete', '/TN', this.taskPath, '/F']);
  }
}
