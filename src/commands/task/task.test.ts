import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { call } from '../../../test/helpers/git.js';
import { survivors } from '../../../test/helpers/process.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { list } from './list.js';
import { run } from './run.js';
import { save } from './save.js';

const env = { PATH: process.env.PATH, HOME: process.env.HOME };

describe('task.save and task.list', () => {
  it('upserts by name in <cwd>/.ah/tasks.json and lists in first-saved order', async () => {
    const dir = tempDir();
    const ctx = testContext({ cwd: dir, env });
    const first = await call(save, { name: 'test', command: 'npm test' }, ctx);
    expect(first).toMatchObject({
      command: 'task.save',
      name: 'test',
      task_command: 'npm test',
      store_path: join(dir, '.ah', 'tasks.json'),
    });
    await call(save, { name: 'build', command: 'make' }, ctx);
    await call(save, { name: 'test', command: 'npm test -- --run' }, ctx);
    const stored = JSON.parse(readFileSync(join(dir, '.ah', 'tasks.json'), 'utf8'));
    expect(stored.version).toBe(1);
    expect(stored.tasks.map((t: { name: string; command: string }) => [t.name, t.command])).toEqual([
      ['test', 'npm test -- --run'],
      ['build', 'make'],
    ]);
    expect(Object.keys(stored.tasks[0])).toEqual(['name', 'command', 'updated_unix_seconds']);
    const listed = await call(list, {}, ctx);
    expect(listed).toMatchObject({ command: 'task.list', count: 2, truncated: false });
    expect(list.render?.(listed)).toBe('test   npm test -- --run\nbuild  make');
    const capped = await call(list, {}, testContext({ cwd: dir, limit: 1 }));
    expect(capped).toMatchObject({ count: 2, truncated: true, tasks: [{ name: 'test' }] });
  });

  it('lists nothing when there is no store, and refuses a malformed one', async () => {
    const dir = tempDir();
    expect(await call(list, {}, testContext({ cwd: dir }))).toMatchObject({ count: 0, tasks: [] });
    mkdirSync(join(dir, '.ah'));
    writeFileSync(join(dir, '.ah', 'tasks.json'), '{"version": 2, "tasks": []}');
    await expect(call(list, {}, testContext({ cwd: dir }))).rejects.toMatchObject({ code: 'JSON_DESERIALIZATION_FAILED' });
  });

  it('rejects names outside ^[A-Za-z0-9._-]+$ by schema', async () => {
    await expect(call(save, { name: 'a b', command: 'x' }, testContext({ cwd: tempDir() }))).rejects.toThrow(/pattern/);
  });
});

describe('task.run', () => {
  it('runs through sh -lc in the working directory and reports a failure as data', async () => {
    const dir = tempDir();
    const ctx = testContext({ cwd: dir, env });
    await call(save, { name: 'pwd', command: 'pwd; echo oops >&2; exit 3' }, ctx);
    const out = await call(run, { name: 'pwd' }, ctx);
    expect(out).toEqual({
      command: 'task.run',
      name: 'pwd',
      task_command: 'pwd; echo oops >&2; exit 3',
      success: false,
      exit_code: 3,
      stdout: `${dir}\n`,
      stderr: 'oops\n',
      truncated: false,
    });
    expect(ctx.progressMessages[0]).toMatch(/^task pwd: running for \d+ s, \d+ bytes of output$/);
  });

  it('caps bytes per stream and lines by the limit, setting truncated', async () => {
    const dir = tempDir();
    await call(save, { name: 'many', command: 'for i in 1 2 3 4 5; do echo line$i; done' }, testContext({ cwd: dir, env }));
    const lines = await call(run, { name: 'many' }, testContext({ cwd: dir, env, limit: 2 }));
    expect(lines).toMatchObject({ success: true, stdout: 'line1\nline2\n', truncated: true });
    const bytes = await call(run, { name: 'many', max_output_bytes: 8 }, testContext({ cwd: dir, env }));
    expect(bytes).toMatchObject({ stdout: 'line1\nli', truncated: true });
  });

  it('fails with TASK_NOT_FOUND for an unknown name', async () => {
    await expect(call(run, { name: 'nope' }, testContext({ cwd: tempDir(), env }))).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
  });

  it('kills the whole tree on timeout (TASK_TIMEOUT), grandchild included', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'pids');
    // The shell starts a sleeping grandchild in the background, records both pids and waits.
    await call(save, { name: 'hang', command: `sleep 60 & echo $$ $! > ${pidFile}; wait` }, testContext({ cwd: dir, env }));
    await expect(call(run, { name: 'hang', timeout_secs: 1 }, testContext({ cwd: dir, env }))).rejects.toMatchObject({
      code: 'TASK_TIMEOUT',
    });
    const pids = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
    expect(pids).toHaveLength(2);
    expect(await survivors(pids)).toEqual([]);
  });
});
