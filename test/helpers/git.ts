/**
 * Test support for the git commands: throwaway repositories driven by the real git binary, with a
 * private global config and a fixed identity so nothing reads or writes the user's ~/.gitconfig.
 * Imported by the git command unit tests in src/commands/git.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CommandContext, CommandDescriptor } from '../../src/catalog/descriptor.js';
import { compile, describeErrors } from '../../src/catalog/schema.js';
import { runProcess } from '../../src/platform/exec.js';
import { type TestContext, testContext } from './context.js';
import { tempDir } from './tmp.js';

export type Env = Record<string, string | undefined>;

export interface Repo {
  dir: string;
  env: Env;
  /** Runs git in the repository (or `cwd`); throws with git's stderr when it fails. */
  git(args: string[], options?: { cwd?: string; env?: Env }): Promise<string>;
  /** Writes a file (creating parent directories) relative to the repository. */
  write(path: string, content: string | Buffer): void;
  /** Commits everything with a message, at an optional fixed date (seconds since the epoch). */
  commitAll(message: string, unixSeconds?: number): Promise<void>;
  ctx(overrides?: Partial<CommandContext>): TestContext;
}

export function gitEnv(): Env {
  const home = tempDir('ah-git-home-');
  const globalConfig = join(home, 'gitconfig');
  writeFileSync(globalConfig, '');
  return {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_GLOBAL: globalConfig,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Ada Lovelace',
    GIT_AUTHOR_EMAIL: 'ada@example.test',
    GIT_COMMITTER_NAME: 'Charles Babbage',
    GIT_COMMITTER_EMAIL: 'charles@example.test',
  };
}

export async function runGit(cwd: string, env: Env, args: string[]): Promise<string> {
  const r = await runProcess('git', args, { cwd, env });
  if (r.kind !== 'exited' || r.code !== 0) {
    const detail = r.kind === 'exited' ? r.stderr.toString() : r.kind;
    throw new Error(`git ${args.join(' ')} failed: ${detail}`);
  }
  return r.stdout.toString('utf8');
}

/** A repository on branch main (set `init: false` for a plain directory). */
export async function makeRepo(options: { init?: boolean; bare?: boolean } = {}): Promise<Repo> {
  const dir = tempDir('ah-git-');
  const env = gitEnv();
  if (options.init !== false) await runGit(dir, env, ['init', '-q', '-b', 'main', ...(options.bare ? ['--bare'] : [])]);
  const repo: Repo = {
    dir,
    env,
    git: (args, o = {}) => runGit(o.cwd ?? dir, { ...env, ...o.env }, args),
    write(path, content) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    },
    async commitAll(message, unixSeconds) {
      await repo.git(['add', '-A']);
      const date =
        unixSeconds === undefined ? {} : { GIT_AUTHOR_DATE: `@${unixSeconds} +0000`, GIT_COMMITTER_DATE: `@${unixSeconds} +0000` };
      await repo.git(['commit', '-q', '--allow-empty', '-m', message], { env: date });
    },
    ctx: (overrides = {}) => testContext({ cwd: dir, env, ...overrides }),
  };
  return repo;
}

/** Calls a command the way the runtime does: input defaults applied, output checked against its schema. */
export async function call<O>(descriptor: CommandDescriptor<any, O>, args: Record<string, unknown>, ctx: CommandContext): Promise<O> {
  const input = structuredClone(args);
  const validIn = compile(descriptor.inputSchema);
  if (!validIn(input)) throw new Error(`input: ${describeErrors(validIn.errors)}`);
  const output = await descriptor.run(input, ctx);
  const validOut = compile(descriptor.outputSchema);
  if (!validOut(output)) throw new Error(`output: ${describeErrors(validOut.errors, 'output')}`);
  return output;
}
