import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/tmp.js';
import { spawnAttached } from '../platform/exec.js';
import { MAX_RELAUNCHES } from './definition.js';
import { superviseServer } from './launcher.js';

/** A real child that appends one line per run and exits with the code listed for that run. */
function crashingProgram(dir: string, codes: number[]): { args: string[]; runs: () => number } {
  const log = join(dir, 'runs.log');
  writeFileSync(log, '');
  const script = `
    const fs = require('node:fs');
    fs.appendFileSync(${JSON.stringify(log)}, 'run\\n');
    const n = fs.readFileSync(${JSON.stringify(log)}, 'utf8').split('\\n').filter(Boolean).length;
    const codes = ${JSON.stringify(codes)};
    process.exit(codes[Math.min(n, codes.length) - 1]);`;
  return { args: ['-e', script], runs: () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length };
}

describe('superviseServer', () => {
  it('relaunches a crashing server at most three times and reports the last failure', async () => {
    const program = crashingProgram(tempDir(), [3, 3, 3, 3, 3, 3]);
    const code = await superviseServer({ program: process.execPath, args: program.args, env: process.env, spacingMs: 10 });
    expect(code).toBe(3);
    expect(program.runs()).toBe(1 + MAX_RELAUNCHES);
  });

  it('stops relaunching after a clean exit', async () => {
    const program = crashingProgram(tempDir(), [1, 0]);
    const code = await superviseServer({ program: process.execPath, args: program.args, env: process.env, spacingMs: 10 });
    expect(code).toBe(0);
    expect(program.runs()).toBe(2);
  });

  it('does not relaunch once asked to stop during the wait', async () => {
    const program = crashingProgram(tempDir(), [5]);
    const stop = new AbortController();
    const code = await superviseServer({
      program: process.execPath,
      args: program.args,
      env: process.env,
      spacingMs: 60_000,
      stop: stop.signal,
      // Stop once the first run has exited, so the request lands in the wait before a relaunch
      // (a fixed delay raced a slow child start on a loaded machine and killed the run instead).
      start: (program, args, env) => {
        const child = spawnAttached(program, args, env);
        void child.exited.then(() => setTimeout(() => stop.abort(), 50));
        return child;
      },
    });
    expect(code).toBe(5);
    expect(program.runs()).toBe(1);
  });

  it('reports a program that cannot start as 127', async () => {
    const code = await superviseServer({ program: join(tempDir(), 'missing-program'), args: [], env: process.env, spacingMs: 1 });
    expect(code).toBe(127);
  });
});
