/**
 * A real `systemd --user` manager for tests on a machine whose PID 1 is not systemd (root only).
 *
 * The manager runs confined to its own cgroup subtree (hybrid v1+v2 or pure v2 layouts) and a
 * private mount namespace with a tmpfs on /run/systemd, so it can never adopt processes outside
 * the subtree. The confinement is verified from /proc/self/cgroup before systemd is exec'd.
 * stop() kills every process in the subtree (manager, units, their children) and removes it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmdirSync, chmodSync, closeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SYSTEMD_BIN = '/usr/lib/systemd/systemd';

export interface SystemdSandbox {
  dir: string;
  home: string;
  runtimeDir: string;
  configHome: string;
  /** Environment for talking to this manager (systemctl --user, ah mcp service …). */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** Why the sandbox cannot run here, or null when it can. */
export function sandboxUnavailable(): string | null {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'needs root';
  if (!existsSync(SYSTEMD_BIN)) return `${SYSTEMD_BIN} is not installed`;
  return null;
}

function cgroupDirs(name: string): string[] {
  if (existsSync('/sys/fs/cgroup/unified/cgroup.procs')) {
    const dirs = [`/sys/fs/cgroup/unified/${name}`];
    if (existsSync('/sys/fs/cgroup/systemd/cgroup.procs')) dirs.push(`/sys/fs/cgroup/systemd/${name}`);
    return dirs;
  }
  if (existsSync('/sys/fs/cgroup/cgroup.controllers')) return [`/sys/fs/cgroup/${name}`];
  throw new Error('unknown cgroup layout');
}

// Runs as the confined shell: join the subtree, prove it, give systemd its own /run/systemd.
const CONFINE = `
set -e
for d in $AH_SB_CGROUPS; do mkdir -p "$d"; echo $$ > "$d/cgroup.procs"; done
while IFS=: read -r _ controller path; do
  if [ -z "$controller" ] || [ "$controller" = name=systemd ]; then
    [ "$path" = "/$AH_SB_NAME" ] || { echo "confinement failed: $controller $path" >&2; exit 3; }
  fi
done < /proc/self/cgroup
mount -t tmpfs -o size=32m,mode=755 tmpfs /run/systemd
mkdir -p /run/systemd/system
exec ${SYSTEMD_BIN} --user
`;

function managerEnv(dir: string): NodeJS.ProcessEnv {
  const home = join(dir, 'home');
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: home,
    XDG_RUNTIME_DIR: join(dir, 'xdg'),
    XDG_CONFIG_HOME: join(home, '.config'),
  };
}

function systemState(env: NodeJS.ProcessEnv): string {
  try {
    return execFileSync('systemctl', ['--user', 'show', '-p', 'SystemState', '--value'], { env, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return '';
  }
}

export async function startSystemdSandbox(dir: string): Promise<SystemdSandbox> {
  const why = sandboxUnavailable();
  if (why) throw new Error(`systemd sandbox unavailable: ${why}`);
  const name = `ah-test-sdu-${createHash('md5').update(dir).digest('hex').slice(0, 12)}`;
  const cgroups = cgroupDirs(name);
  const env = managerEnv(dir);
  mkdirSync(join(env.XDG_CONFIG_HOME as string, 'systemd', 'user'), { recursive: true });
  mkdirSync(env.XDG_RUNTIME_DIR as string, { recursive: true });
  chmodSync(env.XDG_RUNTIME_DIR as string, 0o700);
  const log = openSync(join(dir, 'manager.log'), 'a');
  // detached: the child gets its own session (setsid), away from the test's terminal and group.
  const child = spawn('unshare', ['--mount', '--propagation', 'private', 'bash', '-c', CONFINE], {
    env: { ...env, AH_SB_CGROUPS: cgroups.join(' '), AH_SB_NAME: name },
    stdio: ['ignore', log, log],
    detached: true,
  });
  closeSync(log);
  child.unref();
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const stop = async () => {
    killSubtree(cgroups);
  };
  const until = Date.now() + 10_000;
  while (systemState(env) !== 'running') {
    if (exited || Date.now() > until) {
      await stop();
      throw new Error(`systemd --user did not start: ${readFileSync(join(dir, 'manager.log'), 'utf8')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  writeFileSync(join(dir, 'manager.pid'), String(child.pid));
  return { dir, home: env.HOME as string, runtimeDir: env.XDG_RUNTIME_DIR as string, configHome: env.XDG_CONFIG_HOME as string, env, stop };
}

function procsUnder(root: string): number[] {
  const pids: number[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    try {
      for (const line of readFileSync(join(d, 'cgroup.procs'), 'utf8').split('\n')) if (line.trim()) pids.push(Number(line));
    } catch {
      return;
    }
    for (const entry of readdirSync(d, { withFileTypes: true })) if (entry.isDirectory()) walk(join(d, entry.name));
  };
  walk(root);
  return pids;
}

function removeTree(d: string): void {
  if (!existsSync(d)) return;
  for (const entry of readdirSync(d, { withFileTypes: true })) if (entry.isDirectory()) removeTree(join(d, entry.name));
  try {
    rmdirSync(d);
  } catch {
    // A group that is still draining; the next pass (or the next test run) removes it.
  }
}

/** SIGKILL everything in the subtree until it is empty, then remove the groups. */
function killSubtree(cgroups: readonly string[]): void {
  const until = Date.now() + 5000;
  for (;;) {
    const pids = cgroups.flatMap(procsUnder);
    if (pids.length === 0 || Date.now() > until) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    execFileSync('sleep', ['0.02']);
  }
  for (const d of cgroups) removeTree(d);
}
