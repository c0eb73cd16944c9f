/**
 * The server side of managed mode. The registered unit/task runs `ah mcp serve --transport http`
 * with AH_MANAGED_STATE_DIR and AH_MANAGED_CONFIGURATION_ID set. Such a server first takes the
 * per-user instance lease (instance.lock: one managed server per user), verifies its definition,
 * writes runtime.json once it is ready, and records how it ended there: exit 0 after a clean
 * shutdown, nonzero after a fatal failure. Only the lease holder ever writes runtime.json.
 */
import { randomUUID } from 'node:crypto';
import type { Env } from '../platform/paths.js';
import { type RuntimeRecord, StateStore, tryLock } from './state.js';

export interface ManagedHooks {
  onReady(info: { port: number; pid: number; instanceId: string; version: string }): Promise<void>;
}

/** Waiting this long for the lease lets a killed predecessor's lock holder wind down. */
const LEASE_WAIT_SECONDS = 3;

export async function runManaged(
  env: Env,
  options: { transport: string; port: number },
  serve: (hooks: ManagedHooks) => Promise<number>,
): Promise<number> {
  const fail = (message: string) => {
    process.stderr.write(`ah: managed mcp server: ${message}\n`);
    return 1;
  };
  const store = new StateStore(env.AH_MANAGED_STATE_DIR as string);
  const configurationId = env.AH_MANAGED_CONFIGURATION_ID ?? '';
  const lease = await tryLock(store.instanceLockPath, LEASE_WAIT_SECONDS);
  // Another managed server holds the lease and owns runtime.json: leave both alone.
  if (!lease) return fail(`another managed server holds ${store.instanceLockPath}`);
  // What an exit is recorded against until the server is ready and says who it is.
  let record: RuntimeRecord = {
    schema_version: 1,
    service_id: 'unknown',
    configuration_id: configurationId || 'unknown',
    pid: process.pid,
    instance_id: randomUUID(),
    version: 'unknown',
    port: options.port,
    started_at: new Date().toISOString(),
    ready_at: null,
    exit: null,
  };
  const recordExit = (code: number, reason: string) =>
    store.writeRuntime({ ...record, exit: { code, reason, at: new Date().toISOString() } }).catch(() => undefined);
  const definition = await store.readDefinition(configurationId);
  if (definition.kind !== 'ok' || definition.value.port !== options.port || options.transport !== 'http') {
    const reason =
      definition.kind !== 'ok' ? `definition ${configurationId} does not verify` : 'the command line does not match the definition';
    await recordExit(1, reason);
    return fail(reason);
  }
  const serviceId = definition.value.service_id;
  try {
    const code = await serve({
      onReady: async (info) => {
        record = {
          ...record,
          service_id: serviceId,
          configuration_id: configurationId,
          pid: info.pid,
          instance_id: info.instanceId,
          version: info.version,
          port: info.port,
          ready_at: new Date().toISOString(),
        };
        await store.writeRuntime(record);
      },
    });
    await recordExit(code, code === 0 ? 'clean shutdown' : 'fatal failure during shutdown');
    return code;
  } catch (error) {
    const e = error as { code?: string; message?: string };
    await recordExit(1, `${e.code ?? 'ERROR'}: ${e.message ?? String(error)}`);
    throw error;
  } finally {
    lease.release();
  }
}
