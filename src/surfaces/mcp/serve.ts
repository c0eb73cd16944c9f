/**
 * `ah mcp serve`: validates the startup configuration, builds the process-wide core and hands it
 * to the chosen transport. Resolves to the process exit code.
 */
import { AhError } from '../../errors.js';
import { Executor } from '../../runtime/executor.js';
import { JobRegistry } from '../../runtime/jobs.js';
import type { HostCliEnv } from '../cli/host-commands.js';
import { pathToFileURL } from 'node:url';
import type { ManagedHooks } from '../../service/managed-instance.js';
import type { McpCore, ServerFixtures } from './call.js';
import { boundHeapGrowth } from './heap.js';
import { Lifecycle } from './lifecycle.js';
import { reservedJobCommands } from './tools.js';
import { serveStdio } from './transports/stdio.js';
import { settleBeforeExit } from '../../platform/blocked-exit.js';
import { importModule } from '../../platform/import-module.js';

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

export function serveOptions(input: Record<string, unknown>): ServeOptions {
  const transport = (input.transport as 'stdio' | 'http' | undefined) ?? 'stdio';
  if (transport === 'stdio' && input.port !== undefined) {
    throw startupError('INVALID_ARGUMENT', '--port is only valid with --transport http', 'Drop --port, or add --transport http.');
  }
  const port = (input.port as number | undefined) ?? 8787;
  const maxActive = input.max_active as number;
  const defaultTimeoutMs = input.default_timeout_ms as number;
  if (!Number.isInteger(maxActive) || maxActive < 1) throw startupError('INVALID_RANGE', '--max-active must be >= 1');
  if (!Number.isInteger(defaultTimeoutMs) || defaultTimeoutMs < 1) throw startupError('INVALID_RANGE', '--default-timeout-ms must be >= 1');
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
function internalNumber(env: HostCliEnv['env'], name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

export async function serveFromCli(input: Record<string, unknown>, env: HostCliEnv, managed?: ManagedHooks): Promise<number> {
  const options = serveOptions(input);
  if (!managed && env.env.AH_MANAGED_LAUNCHER === '1') {
    // Windows task action: supervise the real server (relaunch policy) instead of serving here.
    const { runLauncher } = await import('../../service/launcher.js');
    const spacing = Number(env.env.AH_MANAGED_RESTART_SEC ?? '60');
    return runLauncher(env.env, Number.isInteger(spacing) && spacing >= 0 ? spacing : 60);
  }
  if (!managed && env.env.AH_MANAGED_STATE_DIR) {
    // Started by the service manager: lease, runtime.json and exit recording live in service/.
    const { runManaged } = await import('../../service/managed-instance.js');
    return runManaged(env.env, options, (hooks) => serveFromCli(input, env, hooks));
  }
  guardStdout();
  boundHeapGrowth(env.env, process.execArgv);
  const snapshot = env.catalog.snapshot();
  const reserved = reservedJobCommands(snapshot);
  if (reserved.length > 0) {
    throw startupError(
      'COMMAND_CATALOG_INVALID',
      `the catalog publishes reserved job commands: ${reserved.join(', ')}`,
      'The ah.job.* namespace belongs to the built-in job tools; remove or rename the plugin commands.',
    );
  }
  const runtime = { snapshot: () => env.catalog.snapshot(), host: env.catalog, log: env.log, env: env.env };
  const executor = new Executor(runtime, options.maxActive);
  const core: McpCore = {
    catalog: env.catalog,
    runtime,
    executor,
    jobs: new JobRegistry({
      ...(internalNumber(env.env, 'AH_INTERNAL_JOB_MAX_RECORDS') !== undefined
        ? { maxRecords: internalNumber(env.env, 'AH_INTERNAL_JOB_MAX_RECORDS') }
        : {}),
      ...(internalNumber(env.env, 'AH_INTERNAL_JOB_TTL_MS') !== undefined
        ? { ttlMs: internalNumber(env.env, 'AH_INTERNAL_JOB_TTL_MS') }
        : {}),
    }),
    transport: options.transport,
    defaults: { cwd: env.cwd, limit: env.limit, timeoutMs: options.defaultTimeoutMs },
  };
  const fixturePath = env.env.AH_INTERNAL_MCP_FIXTURES;
  if (fixturePath) core.fixtures = (await importModule(pathToFileURL(fixturePath).href)) as ServerFixtures;
  // Changes to plugins.json made by any process reach this server and its sessions.
  const stopWatching = env.catalog.watchSettings();
  const lifecycle = new Lifecycle(executor, env.log, undefined, (line) => process.stderr.write(`${line}\n`));
  if (options.transport === 'http') {
    const { serveHttp } = await import('./transports/http.js');
    const idleMs = internalNumber(env.env, 'AH_INTERNAL_MCP_SESSION_IDLE_MS');
    const requestTimeoutMs = internalNumber(env.env, 'AH_INTERNAL_HTTP_REQUEST_TIMEOUT_MS');
    const bound = await serveHttp(core, lifecycle, {
      port: options.port,
      version: env.version,
      ...(idleMs !== undefined ? { idleMs } : {}),
      ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
    });
    await managed?.onReady({
      port: bound.port,
      pid: bound.identity.pid,
      instanceId: bound.identity.instanceId,
      version: bound.identity.version,
    });
  } else {
    await serveStdio(core, lifecycle);
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
  await settleBeforeExit(env.log.flush(), EXIT_GRACE_MS, () =>
    process.stderr.write('ah: shutdown ended with thread-pool work still blocked; exiting with SIGKILL\n'),
  );
  return result.code;
}
