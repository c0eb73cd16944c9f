/** Runs the built `ah` as a real child process with its own config dir and HOME. */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { suiteTempDir, tempDir } from './tmp.js';

export const AH_BIN = resolve(import.meta.dirname, '../../bin/ah.cjs');

export interface AhRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON. */
  json<T = Record<string, unknown>>(): T;
  /** stderr parsed as JSON (the --json error diagnostic). */
  errorJson<T = Record<string, unknown>>(): T;
}

export interface AhEnv {
  configDir: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

/** Isolated environment: own AH_CONFIG_DIR and HOME, no colours. */
export function isolatedEnv(extra: NodeJS.ProcessEnv = {}, options: { suite?: boolean } = {}): AhEnv {
  const root = options.suite ? suiteTempDir('ah-env-') : tempDir('ah-env-');
  const configDir = join(root, 'config');
  const home = join(root, 'home');
  mkdirSync(configDir, { recursive: true });
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AH_CONFIG_DIR: configDir,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    NO_COLOR: '1',
    ...extra,
  };
  return { configDir, home, env };
}

export function runAh(
  args: string[],
  /** `node`: the Node binary to run ah on (default: the one running the tests). */
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number; node?: string } = {},
): Promise<AhRun> {
  const env = options.env ?? isolatedEnv().env;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(options.node ?? process.execPath, [AH_BIN, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => err.push(c));
    if (options.input !== undefined) child.stdin?.end(options.input);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      resolvePromise({
        code,
        stdout,
        stderr,
        json: <T>() => JSON.parse(stdout) as T,
        errorJson: <T>() => JSON.parse(stderr) as T,
      });
    });
  });
}
