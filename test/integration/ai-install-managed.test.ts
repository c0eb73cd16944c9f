/**
 * `ah ai install --transport managed` against a real systemd user manager (sandboxed, own HOME):
 * the agent entry gets the managed service's endpoint; a stopped service is started, a running one
 * is left alone, a missing one is only described by a dry run (a real install would use the default
 * port 8787, which a shared test machine cannot promise).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runAh } from '../helpers/cli.js';
import { SYSTEMD_USER_MANAGER, unavailable } from '../helpers/requires.js';
import { onCleanup, type ServiceEnv, service, serviceEnv } from '../helpers/service.js';
import { tempDir } from '../helpers/tmp.js';

function project(): string {
  const dir = join(tempDir('ah-ai-managed-'), 'repo');
  mkdirSync(join(dir, '.git'), { recursive: true });
  return dir;
}

async function install(s: ServiceEnv, cwd: string, args: string[]): Promise<Record<string, any>> {
  const r = await runAh(['ai', 'install', 'cursor', '--transport', 'managed', '--mcp-only', '--json', ...args], {
    env: s.env,
    cwd,
    timeoutMs: 60_000,
  });
  expect(r.code, r.stderr).toBe(0);
  return r.json<Record<string, any>>();
}

const SUITE = 'ai install with the managed transport on a real systemd user manager';

describe.skipIf(unavailable(SUITE, SYSTEMD_USER_MANAGER))(SUITE, () => {
  test('a stopped service is started and its endpoint registered; a running one is already_running; a missing one is only planned by --dry-run', async () => {
    const s = await serviceEnv();
    onCleanup(async () => {
      await service(s, ['uninstall']);
    });
    const cwd = project();
    const endpoint = `http://127.0.0.1:${s.port}/mcp`;

    const planned = await runAh(['ai', 'install', 'cursor', '--transport', 'managed', '--dry-run'], { env: s.env, cwd, timeoutMs: 60_000 });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('would install and start the managed MCP service (http://127.0.0.1:8787/mcp)');
    expect(existsSync(s.unitPath)).toBe(false);
    expect(existsSync(join(cwd, '.cursor'))).toBe(false);

    const registered = await service(s, ['install', '--port', String(s.port), '--no-start']);
    expect(registered.code, registered.stderr).toBe(0);
    const started = await install(s, cwd, ['--yes']);
    expect(started).toMatchObject({
      changed: true,
      mcp: { action: 'installed', transport: 'http', url: endpoint },
      managed_service: { action: 'started', endpoint },
    });
    expect(JSON.parse(readFileSync(join(cwd, '.cursor', 'mcp.json'), 'utf8')).mcpServers.aihelper).toEqual({ url: endpoint });
    const ready = await fetch(`http://127.0.0.1:${s.port}/health/ready`);
    expect(ready.status).toBe(200);

    const again = await install(s, cwd, ['--yes']);
    expect(again).toMatchObject({ changed: false, mcp: { action: 'unchanged' }, managed_service: { action: 'already_running', endpoint } });

    const bad = await runAh(['ai', 'install', 'cursor', '--transport', 'managed', '--url', endpoint, '--json'], { env: s.env, cwd });
    expect(bad.code).toBe(1);
    expect(bad.errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
