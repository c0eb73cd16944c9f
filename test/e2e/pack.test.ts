// The package as users install a CLI: `npm pack` the checkout, `npm install -g` the tarball into a
// temporary prefix, and run that `ah` from a directory outside the source tree. Only the tarball
// and its runtime dependencies from the registry are there: no dev dependencies, no src/, no
// node_modules of the checkout. npm pack runs with --ignore-scripts: dist/ is what the test
// command's build step made, and a rebuild here would race the other suites using it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteTempDir } from '../helpers/tmp.js';

const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
// The machine's PATH without node_modules: npm and `node` are the ones a user has.
const PATH = (process.env.PATH ?? '')
  .split(':')
  .filter((p) => p && !p.includes('node_modules'))
  .join(':');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Run> {
  return new Promise((done, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? { ...process.env, PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

let prefix: string;
let ah: string;
let installed: string;
let work: string;
let userEnv: NodeJS.ProcessEnv;
let packedFiles: string[];
let client: Client | undefined;

beforeAll(async () => {
  const scratch = suiteTempDir('ah-pack-');
  const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], { cwd: root, timeoutMs: 120_000 });
  expect(packed.code, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
  packedFiles = info.files.map((f) => f.path);
  prefix = join(scratch, 'prefix');
  const install = await run(
    'npm',
    ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(scratch, info.filename)],
    { cwd: scratch, timeoutMs: 240_000 },
  );
  expect(install.code, install.stderr).toBe(0);
  ah = join(prefix, 'bin', 'ah');
  installed = join(prefix, 'lib', 'node_modules', pkg.name);
  work = join(scratch, 'work');
  const home = join(scratch, 'home');
  for (const dir of [work, home, join(scratch, 'config')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(work, 'notes.txt'), 'first line\nsecond line: needle\n');
  userEnv = { PATH, HOME: home, AH_CONFIG_DIR: join(scratch, 'config'), NO_COLOR: '1', LANG: 'C.UTF-8' };
}, 300_000);

afterAll(async () => {
  await client?.close();
});

describe('the packed package installed with npm install -g', () => {
  it('ships the launcher, the bundle, its validators, search worker and code caches, and no sources', () => {
    for (const file of [
      'bin/ah.cjs',
      'dist/ah.cjs',
      'dist/ah.cache',
      'dist/ah-cli.cache',
      'dist/search-worker.cjs',
      'dist/version.cjs',
      'package.json',
    ]) {
      expect(packedFiles).toContain(file);
    }
    expect(packedFiles.some((f) => f.startsWith('dist/validators/'))).toBe(true);
    expect(packedFiles.filter((f) => /^(src|test|bench|scripts|node_modules)\//.test(f) || f.endsWith('.ts'))).toEqual([]);
    // Runtime dependencies only: nothing from devDependencies was installed beside it.
    const deps = readdirSync(join(installed, 'node_modules'));
    for (const dev of ['vitest', 'typescript', '@biomejs', 'esbuild', 'node', 'playwright-core']) expect(deps).not.toContain(dev);
    expect(existsSync(join(installed, 'src'))).toBe(false);
  });

  it('answers --version from the installed bin', async () => {
    const r = await run(ah, ['--version'], { cwd: work, env: userEnv });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`ah ${pkg.version}\n`);
  });

  it('reads a file and searches a tree outside the checkout', async () => {
    const read = await run(ah, ['--json', 'file', 'read', 'notes.txt'], { cwd: work, env: userEnv });
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(read.stdout))).toContain('second line: needle');
    const search = await run(ah, ['--json', 'search', 'text', 'needle', '.'], { cwd: work, env: userEnv });
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain('notes.txt');
  });

  it('serves MCP over stdio: initialize, then a tool call', async () => {
    const transport = new StdioClientTransport({
      command: ah,
      args: ['--cwd', work, 'mcp', 'serve'],
      env: userEnv as Record<string, string>,
      cwd: work,
      stderr: 'pipe',
    });
    client = new Client({ name: 'ah-pack-test', version: '1.0.0' });
    await client.connect(transport);
    expect(client.getServerVersion()?.version).toBe(pkg.version);
    const result = await client.callTool({ name: 'ah.file.read', arguments: { path: 'notes.txt' } });
    expect(result.isError ?? false).toBe(false);
    expect(JSON.stringify(result.structuredContent)).toContain('second line: needle');
  });
});
