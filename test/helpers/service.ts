/** Per-test environment for managed-service suites: a real user manager, own HOME/XDG/config. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { type AhRun, runAh } from './cli.js';
import { startSystemdSandbox, type SystemdSandbox } from './systemd-sandbox.js';
import { tempDir } from './tmp.js';

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Registers something to undo after the current test (run before temp dirs are removed). */
export function onCleanup(fn: () => Promise<void> | void): void {
  cleanups.push(fn);
}

/** A port that was free a moment ago (a service definition cannot use port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface ServiceEnv {
  root: string;
  sandbox: SystemdSandbox | null;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  unitPath: string;
  port: number;
}

/** Own HOME, XDG dirs and AH_CONFIG_DIR; a running user manager unless `manager: false`. */
export async function serviceEnv(options: { manager?: boolean; extra?: NodeJS.ProcessEnv } = {}): Promise<ServiceEnv> {
  const root = tempDir('ah-svc-');
  const sandbox = options.manager === false ? null : await startSystemdSandbox(root);
  if (sandbox) onCleanup(() => sandbox.stop());
  const home = join(root, 'home');
  const { DBUS_SESSION_BUS_ADDRESS: _bus, XDG_RUNTIME_DIR: _rt, ...base } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...base,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    AH_CONFIG_DIR: join(root, 'config'),
    NO_COLOR: '1',
    AH_INTERNAL_SERVICE_RESTART_SEC: '1',
    ...(sandbox ? { XDG_RUNTIME_DIR: sandbox.runtimeDir } : { XDG_RUNTIME_DIR: join(root, 'no-runtime') }),
    ...options.extra,
  };
  return {
    root,
    sandbox,
    env,
    stateDir: join(home, '.local', 'state', 'aihelper', 'managed-mcp'),
    unitPath: join(home, '.config', 'systemd', 'user', 'aihelper-managed-mcp.service'),
    port: await freePort(),
  };
}

/** `ah mcp service <args> --json`. */
export function service(s: ServiceEnv, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<AhRun> {
  return runAh(['mcp', 'service', ...args, '--json'], { env: { ...s.env, ...extraEnv }, timeoutMs: 40_000 });
}

export function runtimeJson(s: ServiceEnv): Record<string, any> {
  return JSON.parse(readFileSync(join(s.stateDir, 'runtime.json'), 'utf8')) as Record<string, any>;
}
