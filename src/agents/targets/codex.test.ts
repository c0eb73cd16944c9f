import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../../test/helpers/tmp.js';
import type { AhError } from '../../errors.js';
import { probeCodexToml } from './codex.js';

describe('Codex config.toml probe', () => {
  test('reads our entry, a legacy one and leaves others alone', async () => {
    const path = join(tempDir(), 'config.toml');
    writeFileSync(
      path,
      [
        '# my codex config',
        'model = "o4"',
        '',
        '[mcp_servers.aihelper]',
        'command = "/opt/ah/bin/ah.cjs"',
        'args = ["mcp", "serve"]',
        '',
        '[mcp_servers.ah]',
        'url = "http://127.0.0.1:8787/mcp"',
        '',
        '[mcp_servers."other.server"]',
        'command = "x"',
      ].join('\n'),
    );
    expect(await probeCodexToml(path)).toEqual({
      present: true,
      legacy: true,
      current: { transport: 'stdio', command: '/opt/ah/bin/ah.cjs', args: ['mcp', 'serve'] },
    });
  });

  test('an HTTP entry, a missing file, an unparsable file', async () => {
    const dir = tempDir();
    const http = join(dir, 'http.toml');
    writeFileSync(http, '[mcp_servers.aihelper]\nurl = "http://127.0.0.1:9/mcp"\n');
    expect((await probeCodexToml(http)).current).toEqual({ transport: 'http', url: 'http://127.0.0.1:9/mcp' });
    expect(await probeCodexToml(join(dir, 'none.toml'))).toEqual({ present: false, current: null, legacy: false });
    const bad = join(dir, 'bad.toml');
    writeFileSync(bad, '[mcp_servers.aihelper\ncommand = ');
    await expect(probeCodexToml(bad)).rejects.toMatchObject({ code: 'AI_CONFIG_UNPARSABLE' } satisfies Partial<AhError>);
  });
});
