/** The rendered unit passes `systemd-analyze --user verify` with nothing on stderr. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { SYSTEMD_ANALYZE, unavailable } from '../../../test/helpers/requires.js';
import type { ServiceDefinition } from '../definition.js';
import { parseUnit, quoteWord, renderUnit, UNIT_NAME } from './unit-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function definition(extra: Partial<ServiceDefinition> = {}): ServiceDefinition {
  return {
    schema_version: 1,
    service_id: 'ah-mcp-0123456789abcdef',
    platform: 'linux',
    cwd: '/srv/my projects/100% $HOME',
    limit: 50,
    port: 8787,
    max_active: 32,
    default_timeout_ms: 300000,
    config_dir: '/home/u/.config/aihelper',
    ah_path: process.argv[1] ?? '/usr/bin/env',
    node_path: process.execPath,
    restart_delay_sec: 60,
    ...extra,
  };
}

const VERIFY = 'systemd-analyze --user verify passes with empty stderr';

describe('systemd unit file', () => {
  test.skipIf(unavailable(VERIFY, SYSTEMD_ANALYZE))(VERIFY, () => {
    const dir = mkdtempSync(join(tmpdir(), 'ah-unit-'));
    const runtime = mkdtempSync(join(tmpdir(), 'ah-xdg-'));
    dirs.push(dir, runtime);
    const path = join(dir, UNIT_NAME);
    writeFileSync(path, renderUnit(definition(), '/home/u/.local/state/aihelper/managed-mcp'));
    expect(existsSync(path)).toBe(true);
    const result = spawnSync('systemd-analyze', ['--user', 'verify', path], {
      env: { ...process.env, XDG_RUNTIME_DIR: runtime, HOME: dir },
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  test('restart policy: three relaunches one minute apart, never linger; owner marker present', () => {
    const props = parseUnit(renderUnit(definition(), '/state'));
    expect(props).toMatchObject({
      'Unit.X-AIHelper-Service-Id': 'ah-mcp-0123456789abcdef',
      'Unit.StartLimitBurst': '4',
      'Service.Restart': 'on-failure',
      'Service.RestartSec': '60',
      'Install.WantedBy': 'default.target',
    });
    expect(props['Service.ExecStart']?.startsWith(`"${process.execPath}" `)).toBe(true);
    expect(props['Service.Environment']).toContain('"AH_MANAGED_STATE_DIR=/state"');
  });

  test('quoting escapes specifiers, variables, quotes and backslashes', () => {
    expect(quoteWord('a "b" \\ 100% $X', true)).toBe('"a \\"b\\" \\\\ 100%% $$X"');
    expect(quoteWord('K=100% $X', false)).toBe('"K=100%% $X"');
  });
});
