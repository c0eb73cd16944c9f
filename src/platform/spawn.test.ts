import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { survivors } from '../../test/helpers/process.js';
import { tempDir } from '../../test/helpers/tmp.js';
import { spawnCaptured } from './spawn.js';

const node = process.execPath;
const env = { PATH: process.env.PATH };

describe('spawnCaptured', () => {
  it('kills the process group when aborted', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'pids');
    const script = `const c = require("child_process").spawn(process.execPath, ["-e", "setTimeout(()=>{}, 60000)"], { stdio: "ignore" }); require("fs").writeFileSync(${JSON.stringify(pidFile)}, process.pid + " " + c.pid); setTimeout(()=>{}, 60000)`;
    const controller = new AbortController();
    const running = spawnCaptured([node, '-e', script], { cwd: dir, env, signal: controller.signal, maxOutputBytes: 1024 });
    for (let i = 0; i < 100 && !(await import('node:fs')).existsSync(pidFile); i += 1) await new Promise((r) => setTimeout(r, 30));
    controller.abort();
    const result = await running;
    expect(result.cancelled).toBe(true);
    const pids = readFileSync(pidFile, 'utf8').split(' ').map(Number);
    expect(await survivors(pids)).toEqual([]);
  });

  it('converts invalid UTF-8 output lossily', async () => {
    const result = await spawnCaptured([node, '-e', 'process.stdout.write(Buffer.from([0x61, 0xff, 0x62]))'], {
      cwd: tempDir(),
      env,
      maxOutputBytes: 1024,
    });
    expect(result.stdout).toBe('a\uFFFDb');
  });

  it('passes only the given environment', async () => {
    const result = await spawnCaptured([node, '-e', 'console.log(process.env.AH_ONLY_HERE ?? "none", process.env.HOME ?? "nohome")'], {
      cwd: tempDir(),
      env: { ...env, AH_ONLY_HERE: 'yes' },
      maxOutputBytes: 1024,
    });
    expect(result.stdout).toBe('yes nohome\n');
  });

  it('rejects an empty command', async () => {
    await expect(spawnCaptured([], { cwd: tempDir(), env, maxOutputBytes: 10 })).rejects.toMatchObject({
      code: 'EXECUTION_REQUEST_INVALID',
    });
  });
});
