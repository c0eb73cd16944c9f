/**
 * The bundle's start-up contract: the built CLI validates built-in commands with the validators
 * the build precompiled (never Ajv's compiler), runs through the code cache, and gives the same
 * validation errors as a run-time compile.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compile, describeErrors, type JsonSchema } from '../../src/catalog/schema.js';
import { BUILTIN_DOMAINS } from '../../src/commands/index.js';
import { isolatedEnv, runAh } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const DIST = resolve(import.meta.dirname, '../../dist');
const RECORDER = resolve(import.meta.dirname, '../fixtures/record-requires.cjs');

function required(stderr: string): string[] {
  const line = stderr.split('\n').find((l) => l.startsWith('AH_TEST_REQUIRED '));
  if (!line) throw new Error(`no record in stderr: ${stderr}`);
  return JSON.parse(line.slice('AH_TEST_REQUIRED '.length)) as string[];
}

describe('built bundle', () => {
  it('ships two code caches and one validator file per built-in schema', () => {
    expect(existsSync(join(DIST, 'ah.cjs'))).toBe(true);
    expect(existsSync(join(DIST, 'ah.cache'))).toBe(true);
    expect(existsSync(join(DIST, 'ah-cli.cache'))).toBe(true);
    const schemas = new Set(
      BUILTIN_DOMAINS.flatMap((m) => m.commands.flatMap((c) => [JSON.stringify(c.inputSchema), JSON.stringify(c.outputSchema)])),
    );
    expect(readdirSync(join(DIST, 'validators')).length).toBeGreaterThanOrEqual(schemas.size);
  });

  it.each(['ah.cache', 'ah-cli.cache'])('ships a code cache (%s) that V8 accepts for the bundle', (name) => {
    const check = [
      "const fs = require('node:fs'), vm = require('node:vm');",
      `const file = ${JSON.stringify(join(DIST, 'ah.cjs'))};`,
      // The launcher compiles the file's own text: the build wrote it as one function expression.
      `const script = new vm.Script(fs.readFileSync(file, 'latin1'), { filename: file, cachedData: fs.readFileSync(${JSON.stringify(join(DIST, name))}) });`,
      'process.stdout.write(String(script.cachedDataRejected));',
    ].join('\n');
    expect(execFileSync(process.execPath, ['-e', check], { encoding: 'utf8' })).toBe('false');
  });

  it('writes the bundle as one function expression that also runs when required as a module', async () => {
    // As a script (the launcher on Node 20): its value is the module function, not yet called.
    const check = [
      "const fs = require('node:fs'), vm = require('node:vm');",
      `const file = ${JSON.stringify(join(DIST, 'ah.cjs'))};`,
      "const run = new vm.Script(fs.readFileSync(file, 'latin1'), { filename: file }).runInThisContext();",
      "process.stdout.write(typeof run + ' ' + run.length);",
    ].join('\n');
    expect(execFileSync(process.execPath, ['-e', check], { encoding: 'utf8' })).toBe('function 5');
    // Required (the launcher where Node has a module compile cache): it calls itself and runs.
    const dir = tempDir('ah-build-require-');
    const { env } = isolatedEnv();
    const required = execFileSync(
      process.execPath,
      [
        '-e',
        `process.argv.splice(1, 0, 'ah'); require(${JSON.stringify(join(DIST, 'ah.cjs'))});`,
        '--',
        '--json',
        'search',
        'files',
        'nothing',
      ],
      {
        cwd: dir,
        env,
        encoding: 'utf8',
      },
    );
    expect(JSON.parse(required)).toMatchObject({ command: 'search.files' });
  });

  it("makes the command-line cache from a one-shot command: smaller than the server's", () => {
    // V8 reads a whole cache at every start: the server's functions would be dead weight for `ah file read`.
    expect(statSync(join(DIST, 'ah-cli.cache')).size).toBeLessThan(statSync(join(DIST, 'ah.cache')).size);
  });

  it("runs the build's code-cache pass on the machine's node, not the node@22 dev dependency npm puts on PATH", () => {
    // What `npm ci` does: node_modules/.bin first on PATH, build.mjs run by the node found there.
    const devNode = resolve(import.meta.dirname, '../../node_modules/node/bin/node');
    const bin = resolve(import.meta.dirname, '../../node_modules/.bin');
    const env = { ...process.env, PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
    const script = `import('${pathToFileURL(resolve(import.meta.dirname, '../../scripts/system-node.mjs')).href}').then((m) => process.stdout.write(m.systemNode()))`;
    const chosen = execFileSync(devNode, ['-e', script], { encoding: 'utf8', env });
    expect(chosen).not.toContain('node_modules');
    expect(execFileSync(chosen, ['--version'], { encoding: 'utf8' }).trim()).toBe(process.version);
  });

  it('runs a one-shot search or file read without loading node:fs/promises', async () => {
    // ~2 ms and ~70 page faults of every start (src/platform/fs-callback.ts).
    const dir = tempDir('ah-build-fs-');
    writeFileSync(join(dir, 'a.txt'), 'one needle\n');
    const { env } = isolatedEnv({ NODE_OPTIONS: `--require ${RECORDER}` });
    for (const args of [
      ['--json', 'search', 'text', 'needle', '.'],
      ['--json', 'file', 'read', 'a.txt'],
    ]) {
      const run = await runAh(args, { cwd: dir, env });
      expect(run.code).toBe(0);
      expect(required(run.stderr).filter((id) => id.includes('fs/promises'))).toEqual([]);
    }
  });

  it('validates built-in commands without loading Ajv', async () => {
    const dir = tempDir('ah-build-');
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\n');
    const { env } = isolatedEnv({ NODE_OPTIONS: `--require ${RECORDER}` });
    const ok = await runAh(['--json', 'file', 'read', 'a.txt'], { cwd: dir, env });
    expect(ok.code).toBe(0);
    expect(ok.json()).toMatchObject({ command: 'file.read', line_count: 2 });
    expect(required(ok.stderr).filter((id) => id.includes('ajv/dist/2020') || id === 'ajv-formats')).toEqual([]);

    const bad = await runAh(['--json', 'file', 'read', 'a.txt', '--from', '0'], { cwd: dir, env });
    expect(bad.code).toBe(1);
    expect(required(bad.stderr).filter((id) => id.includes('ajv/dist/2020'))).toEqual([]);
    const diagnostic = JSON.parse(bad.stderr.slice(0, bad.stderr.indexOf('\nAH_TEST_REQUIRED'))) as { code: string; message: string };
    // The same words a run-time Ajv compile of the same schema gives.
    const read = BUILTIN_DOMAINS.flatMap((m) => m.commands).find((c) => c.id === 'file.read');
    const validate = compile(read?.inputSchema as JsonSchema);
    expect(validate({ path: 'a.txt', from: 0 })).toBe(false);
    expect(diagnostic).toMatchObject({ code: 'INVALID_RANGE' });
    expect(diagnostic.message).toContain(
      describeErrors(validate.errors, 'arguments', read?.inputSchema, { surface: 'cli', positionals: read?.cli?.positionals ?? [] }),
    );
    expect(diagnostic.message).toContain('--from must be >= 1');
  });
});
