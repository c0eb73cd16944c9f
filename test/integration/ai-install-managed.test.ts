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
import { runOnPty } from '../helpers/pty.js';
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
  test('picked on a terminal, a stopped service is started and its endpoint registered; then already_running; a missing one is only planned by --dry-run', async () => {
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
    // On a terminal the transport menu shows the service's live state; choosing it starts the service.
    const picked = await runOnPty(['ai', 'install', 'cursor'], {
      env: s.env,
      cwd,
      columns: 140,
      timeoutMs: 60_000,
      steps: [
        { waitFor: 'Scope', send: '\r' },
        { waitFor: 'Components', send: '\r' },
        { waitFor: 'managed service (installed, stopped; will be started)', send: '\x1b[B\x1b[B\r' },
        { waitFor: 'Apply these changes?', send: '\r' },
      ],
    });
    expect(picked.code, picked.transcript).toBe(0);
    expect(picked.transcript).toContain(`would start the managed MCP service (${endpoint})`);
    expect(picked.transcript).toContain(`managed service: started at ${endpoint}`);
    const started = await install(s, cwd, ['--yes']);
    expect(started).toMatchObject({
      changed: false,
      mcp: { action: 'unchanged', transport: 'http', url: endpoint },
      managed_service: { action: 'already_running', endpoint },
    });
    expect(JSON.parse(readFileSync(join(cwd, '.cursor', 'mcp.json'), 'utf8')).mcpServers.aihelper).toEqual({ url: endpoint });
    const ready = await fetch(`http://127.0.0.1:${s.port}/health/ready`);
    expect(ready.status).toBe(200);

    const bad = await runAh(['ai', 'install', 'cursor', '--transport', 'managed', '--url', endpoint, '--json'], { env: s.env, cwd });
    expect(bad.code).toBe(1);
    expect(bad.errorJson()).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
