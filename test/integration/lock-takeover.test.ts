// A dead owner's lock and two writer processes that find it at the same moment: exactly one may
// take it over. Each round plants a lock left by a process that no longer exists, then tells two
// long-lived writer processes (real children) to update the file at once; both updates must land.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'ab'.repeat(32);
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

async function bundle(dir: string, entry: string): Promise<string> {
  const out = join(dir, 'writer-lib.mjs');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'silent' });
  return out;
}

/** A writer process: runs `body(round)` for each round number read from stdin, then answers. */
function writer(script: string): { send(round: number): Promise<string> } {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  return {
    send(round) {
      return new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin?.write(`${round}\n`);
      });
    },
  };
}

const LOOP = (body: string) => `
  import { createInterface } from 'node:readline';
  for await (const line of createInterface({ input: process.stdin })) {
    const round = Number(line);
    try { ${body}; console.log('ok ' + round); } catch (e) { console.log('error ' + round + ' ' + (e.code ?? e.message)); }
  }
`;

/** The content a crashed owner leaves: the identity of a process that has exited. */
function deadOwner(): string {
  const r = spawnSync(process.execPath, [
    '-e',
    'process.stdout.write(String(process.pid) + " " + require("fs").readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ")[19])',
  ]);
  const [pid, start] = r.stdout.toString().split(' ');
  return JSON.stringify({ pid: Number(pid), start, nonce: 'dead' });
}

describe.skipIf(process.platform !== 'linux')('stale-lock takeover under concurrent writers', () => {
  it('plugins.json loses no update in 1,000 rounds with a planted dead owner', async () => {
    const dir = tempDir();
    const lib = await bundle(dir, join(import.meta.dirname, '../../src/plugins/settings.ts'));
    const path = join(dir, 'plugins.json');
    const body = (name: string) =>
      `const { updateDisabledDomains } = await import(${JSON.stringify(lib)});
       await updateDisabledDomains(${JSON.stringify(path)}, (d) => [...d.filter((x) => !x.startsWith('${name}')), '${name}' + round])`;
    const a = writer(LOOP(body('a')));
    const b = writer(LOOP(body('b')));
    const dead = deadOwner();
    let lost = 0;
    for (let round = 0; round < 1000; round++) {
      writeFileSync(`${path}.lock`, dead);
      const answers = await Promise.all([a.send(round), b.send(round)]);
      expect(answers).toEqual([`ok ${round}`, `ok ${round}`]);
      const stored = JSON.parse(readFileSync(path, 'utf8')) as { disabled_domains: string[] };
      if (stored.disabled_domains.join() !== `a${round},b${round}`) lost += 1;
    }
    expect(lost).toBe(0);
  }, 120_000);

  it('the vault loses no record in 150 rounds with a planted dead owner', async () => {
    const dir = tempDir();
    const entry = join(dir, 'vault-entry.ts');
    writeFileSync(
      entry,
      `export { createVault } from ${JSON.stringify(join(import.meta.dirname, '../../src/secrets/vault.ts'))};
       export { keySourceFromHex } from ${JSON.stringify(join(import.meta.dirname, '../../src/secrets/keys.ts'))};`,
    );
    const lib = await bundle(dir, entry);
    const configDir = join(dir, 'config');
    const open = `const { createVault, keySourceFromHex } = await import(${JSON.stringify(lib)});
      const vault = createVault({ configDir: ${JSON.stringify(configDir)}, key: keySourceFromHex('${KEY}') })`;
    const body = (name: string) =>
      `${open}; await vault.add({ id: '${name}-' + round, kind: 'github-token', values: { token: 'v' + round } })`;
    const init = writer(LOOP(`${open}; await vault.init()`));
    expect(await init.send(0)).toBe('ok 0');
    const a = writer(LOOP(body('a')));
    const b = writer(LOOP(body('b')));
    const dead = deadOwner();
    for (let round = 0; round < 150; round++) {
      writeFileSync(join(configDir, 'secrets.v1.lock'), dead);
      expect(await Promise.all([a.send(round), b.send(round)])).toEqual([`ok ${round}`, `ok ${round}`]);
    }
    const list = writer(LOOP(`${open}; console.log(JSON.stringify((await vault.list()).map((m) => m.id)))`));
    const ids = JSON.parse(await list.send(0)) as string[];
    expect(ids.length).toBe(300);
  }, 120_000);
});
