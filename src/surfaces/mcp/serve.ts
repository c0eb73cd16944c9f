/**
 * `ah mcp serve`: validates the startup configuration and assembles the server in one place —
 * executor, job registry and job tools, lifecycle, over the live catalog — then hands it to the
 * chosen transport. Resolves to the process exit code.
 */
import { descriptorProblems } from '../../catalog/registry.js';
import { AhError } from '../../errors.js';
import { MAX_TIMEOUT_MS } from '../../runtime/context.js';
import { Executor } from '../../runtime/executor.js';
import type { Callable, RuntimeCore } from '../../runtime/invoke.js';
import type { Host } from '../../runtime/host.js';
import { type JobServer, jobCommands } from '../../runtime/job-commands.js';
import { JobRegistry } from '../../runtime/jobs.js';
import type { ManagedHooks } from '../../service/managed-instance.js';
import type { McpCore } from './call.js';
import { tuneV8 } from './v8-settings.js';
import { Lifecycle } from './lifecycle.js';
import { reservedJobCommands, toolList } from './tool-definition.js';
import { serveStdio } from './transports/stdio.js';
import { settleBeforeExit } from '../../platform/blocked-exit.js';
import { claimStdout } from '../../platform/stdout-claim.js';

/** How long pool work (the final log flush) may take after shutdown before the process is killed. */
const EXIT_GRACE_MS = 1000;

export interface ServeOptions {
  transport: 'stdio' | 'http';
  port: number;
  maxActive: number;
  defaultTimeoutMs: number;
}

function startupError(code: string, message: string, hint?: string): AhError {
  return new AhError({ code, message, hint, operation: 'mcp.serve', domain: 'mcp' });
}

function serveOptions(input: Record<string, unknown>): ServeOptions {
  const transport = (input.transport as 'stdio' | 'http' | undefined) ?? 'stdio';
  if (transport === 'stdio' && input.port !== undefined) {
    throw startupError('INVALID_ARGUMENT', '--port is only valid with --transport http', 'Drop --port, or add --transport http.');
  }
  const port = (input.port as number | undefined) ?? 8787;
  const maxActive = input.max_active as number;
  const defaultTimeoutMs = input.default_timeout_ms as number;
  if (!Number.isInteger(maxActive) || maxActive < 1) throw startupError('INVALID_RANGE', '--max-active must be >= 1');
  if (!Number.isInteger(defaultTimeoutMs) || defaultTimeoutMs < 1 || defaultTimeoutMs > MAX_TIMEOUT_MS) {
    throw startupError('INVALID_RANGE', `--default-timeout-ms must be between 1 and ${MAX_TIMEOUT_MS}`);
  }
  return { transport, port, maxActive, defaultTimeoutMs };
}

/** Sends every stray console write to stderr: stdout belongs to the MCP transport. */
function guardStdout(): void {
  const toStderr = (...args: unknown[]) => {
    process.stderr.write(`${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}\n`);
  };
  for (const method of ['log', 'info', 'warn', 'debug', 'trace', 'dir'] as const) {
    (console as unknown as Record<string, unknown>)[method] = toStderr;
  }
}

/**
 * Undocumented internal knobs for the test suite (small job limits, short session expiry); they
 * are not flags, so a normal install never sets them by accident.
 */
function internalNumber(env: Host['env'], name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

/** The process-wide server core: one executor, one job registry, the job tools as runtime commands. */
function assemble(host: Host, options: ServeOptions): McpCore {
  const extra = new Map<string, Callable>();
  const runtime: RuntimeCore = { snapshot: () => host.catalog.snapshot(), host: host.catalog, log: host.log, env: host.env, extra };
  const executor = new Executor(runtime, options.maxActive);
  const jobs = new JobRegistry({
    maxRecords: internalNumber(host.env, 'AH_INTERNAL_JOB_MAX_RECORDS'),
    ttlMs: internalNumber(host.env, 'AH_INTERNAL_JOB_TTL_MS'),
  });
  const defaults = { cwd: host.cwd, limit: host.limit, timeoutMs: options.defaultTimeoutMs };
  const server: JobServer = {
    runtime,
    executor,
    jobs,
    transport: options.transport,
    defaults,
    resolveTool: (name) => toolList(host.catalog.snapshot()).byName.get(name),
  };
  // The job tools are checked like catalog commands, and run targets through the same core.
  for (const command of jobCommands(server)) {
    const problems = descriptorProblems(command, { verifyExamples: false });
    if (problems.length > 0) throw startupError('COMMAND_CATALOG_INVALID', `job tool ${command.id} is invalid: ${problems.join('; ')}`);
    extra.set(command.id, command);
  }
  return { catalog: host.catalog, runtime, executor, jobs, transport: options.transport, defaults };
}

export async function serve(input: Record<string, unknown>, host: Host, managed?: ManagedHooks): Promise<number> {
  const options = serveOptions(input);
  if (!managed && host.env.AH_MANAGED_LAUNCHER === '1') {
    // Windows task action: supervise the real server (relaunch policy) instead of serving here.
    const { runLauncher } = await import('../../service/launcher.js');
    const spacing = Number(host.env.AH_MANAGED_RESTART_SEC ?? '60');
    return runLauncher(host.env, Number.isInteger(spacing) && spacing >= 0 ? spacing : 60);
  }
  if (!managed && host.env.AH_MANAGED_STATE_DIR) {
    // Started by the service manager: lease, runtime.json and exit recording live in service/.
    const { runManaged } = await import('../../service/managed-instance.js');
    return runManaged(host.env, options, (hooks) => serve(input, host, hooks));
  }
  guardStdout();
  // Over stdio only the transport writes to fd 1: handlers' stray writes go to stderr.
  const stdout = options.transport === 'stdio' ? claimStdout() : process.stdout;
  tuneV8(host.env, process.execArgv);
  const reserved = reservedJobCommands(host.catalog.snapshot());
  if (reserved.length > 0) {
    throw startupError(
      'COMMAND_CATALOG_INVALID',
      `the catalog publishes reserved job commands: ${reserved.join(', ')}`,
      'The ah.job.* namespace belongs to the built-in job tools; remove or rename the plugin commands.',
    );
  }
  const core = assemble(host, options);
  // Changes to plugins.json made by any process reach this server and its sessions.
  const stopWatching = host.catalog.watchSettings();
  const lifecycle = new Lifecycle(core.executor, host.log, undefined, (line) => process.stderr.write(`${line}\n`));
  if (options.transport === 'http') {
    const { serveHttp } = await import('./transports/http.js');
    const bound = await serveHttp(core, lifecycle, {
      port: options.port,
      version: host.version,
      idleMs: internalNumber(host.env, 'AH_INTERNAL_MCP_SESSION_IDLE_MS'),
      requestTimeoutMs: internalNumber(host.env, 'AH_INTERNAL_HTTP_REQUEST_TIMEOUT_MS'),
      keepAliveMs: internalNumber(host.env, 'AH_INTERNAL_HTTP_KEEP_ALIVE_MS'),
    });
    await managed?.onReady({
      port: bound.port,
      pid: bound.identity.pid,
      instanceId: bound.identity.instanceId,
      version: bound.identity.version,
    });
  } else {
    await serveStdio(core, lifecycle, stdout);
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      void lifecycle.shutdown(signal);
    });
  }
  const result = await lifecycle.finished();
  stopWatching();
  // Work that never returns (a thread-pool call stuck in the kernel) must not keep the process
  // alive once shutdown has ended: see platform/blocked-exit.ts.
  await settleBeforeExit(host.log.flush(), EXIT_GRACE_MS, () =>
    process.stderr.write('ah: shutdown ended with thread-pool work still blocked; exiting with SIGKILL\n'),
  );
  return result.code;
}
