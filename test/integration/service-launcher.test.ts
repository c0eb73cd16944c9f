/**
 * The Windows task action's launcher, exercised for real on this machine: `ah mcp serve` with the
 * launcher marker supervises a real server child, relaunches it after kill -9, and passes a stop
 * request on to it.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { AH_BIN, isolatedEnv } from '../helpers/cli.js';
import { waitFor } from '../helpers/mcp.js';
import { isAlive, survivors } from '../helpers/process.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanups.splice(0)) fn();
});

async function ready(port: string): Promise<{ pid: number; instance_id: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
  return (await res.json()) as { pid: number; instance_id: string };
}

describe('managed-service launcher', () => {
  it('relaunches a killed server and forwards a stop to it', async () => {
    const { env } = isolatedEnv({ AH_MANAGED_LAUNCHER: '1', AH_MANAGED_RESTART_SEC: '0' });
    const launcher = spawn(process.execPath, [AH_BIN, 'mcp', 'serve', '--transport', 'http', '--port', '0'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    launcher.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    cleanups.push(() => launcher.kill('SIGKILL'));
    const ports = () => [...stderr.matchAll(/listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/g)].map((m) => m[1] as string);

    await waitFor(() => ports().length === 1, 15_000);
    const first = await ready(ports()[0] as string);
    expect(first.pid).not.toBe(launcher.pid);
    cleanups.push(() => {
      if (isAlive(first.pid)) process.kill(first.pid, 'SIGKILL');
    });

    process.kill(first.pid, 'SIGKILL');
    await waitFor(() => ports().length === 2, 15_000);
    const second = await ready(ports()[1] as string);
    cleanups.push(() => {
      if (isAlive(second.pid)) process.kill(second.pid, 'SIGKILL');
    });
    expect(second.pid).not.toBe(first.pid);
    expect(second.instance_id).not.toBe(first.instance_id);
    expect(isAlive(launcher.pid as number)).toBe(true);

    launcher.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await survivors([second.pid])).toEqual([]);
  }, 60_000);
});
