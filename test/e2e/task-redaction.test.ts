// Saved tasks are command lines, and command lines carry secrets: the logs keep them redacted
// word by word (as run.check argv is), and task.run logs its outcome, never its output.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runAh } from '../helpers/cli.js';
import { connectStdio } from '../helpers/mcp.js';
import { tempDir } from '../helpers/tmp.js';

describe('task logs', () => {
  it('redact secrets inside saved commands and record the run outcome', async () => {
    const ah = isolatedEnv();
    const dir = tempDir();
    const secret = 'planted-hunter2';
    const line = `TOKEN=${secret} echo --password ${secret} ok`;
    expect((await runAh(['task', 'save', 'deploy', line], { env: ah.env, cwd: dir })).code).toBe(0);
    const s = await connectStdio(['--cwd', dir], { env: ah.env });
    try {
      await s.client.callTool({ name: 'ah.task.save', arguments: { name: 'other', command: `curl -u bob:${secret} http://127.0.0.1:9/` } });
      const ran = (await s.client.callTool({ name: 'ah.task.run', arguments: { name: 'deploy' } })) as {
        structuredContent?: Record<string, unknown>;
      };
      expect(ran.structuredContent).toMatchObject({ success: true });
    } finally {
      await s.close();
    }
    const logs = join(ah.configDir, 'logs');
    const records = readdirSync(logs)
      .flatMap((f) => readFileSync(join(logs, f), 'utf8').split('\n'))
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const text = JSON.stringify(records);
    expect(text).not.toContain(secret);
    expect(text).toContain('TOKEN=[REDACTED]');
    const run = records.find((r) => r.command === 'task.run');
    expect(run?.outcome).toEqual({ success: true, exit_code: 0 });
  });
});
