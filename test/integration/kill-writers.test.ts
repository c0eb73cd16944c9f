// kill -9 during every persisted write: real writer processes update each persisted file in a loop
// and print an acknowledgement after every write returns; the test SIGKILLs them at random moments,
// 100 times per file, then checks with the product's own readers that the file is valid and holds
// every acknowledged write. State carries over from trial to trial, so every trial after the first
// also meets the dead writers' locks and temp files.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { storePath, readStore, upsertTask } from '../../src/commands/task/store.js';
import { readPluginSettings, updateDisabledDomains } from '../../src/plugins/settings.js';
import { keySourceFromHex } from '../../src/secrets/keys.js';
import { createVault } from '../../src/secrets/vault.js';
import { StateStore } from '../../src/service/state.js';
import { suiteTempDir, tempDir } from '../helpers/tmp.js';

const TRIALS = 100;
const KEY = 'cd'.repeat(32);
const SRC = join(import.meta.dirname, '../../src');
// Writers start without NODE_EXTRA_CA_CERTS: parsing a CA bundle would only slow every start.
const CHILD_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS'));

let lib = '';
beforeAll(async () => {
  const dir = suiteTempDir();
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    [
      `export { updateDisabledDomains } from ${JSON.stringify(join(SRC, 'plugins/settings.ts'))};`,
      `export { createVault } from ${JSON.stringify(join(SRC, 'secrets/vault.ts'))};`,
      `export { keySourceFromHex } from ${JSON.stringify(join(SRC, 'secrets/keys.ts'))};`,
      `export { upsertTask } from ${JSON.stringify(join(SRC, 'commands/task/store.ts'))};`,
      `export { StateStore } from ${JSON.stringify(join(SRC, 'service/state.ts'))};`,
    ].join('\n'),
  );
  lib = join(dir, 'writer-lib.mjs');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: lib, logLevel: 'silent' });
});

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

interface Writer {
  ready: Promise<void>;
  closed: Promise<void>;
  /** Sequence numbers whose write returned before the kill. */
  acked: number[];
  kill(): void;
}

/**
 * A writer process: `setup` once, then `write(seq)` for seq = first, first + 1, … printing
 * `ack <seq>` after each. Pipes to a parent are synchronous on Linux, so an ack line is out before
 * the next write starts.
 */
function writer(setup: string, write: string, first: number): Writer {
  const script = `
    const m = await import(${JSON.stringify(lib)});
    ${setup};
    console.log('ready');
    for (let seq = ${first}; seq < ${first + 100_000}; seq++) { ${write}; console.log('ack ' + seq); }
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: CHILD_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const acked: number[] = [];
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (line === 'ready') onReady();
    else if (line.startsWith('ack ')) acked.push(Number(line.slice(4)));
  });
  const closed = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      // Anything but our SIGKILL means the writer failed on its own (a lock timeout, a bad read).
      if (signal === 'SIGKILL') resolve();
      else reject(new Error(`writer exited ${code}: ${stderr}`));
    });
  });
  // A writer that dies before `ready` must fail the trial rather than hang it.
  closed.catch(() => onReady());
  return { ready, closed, acked, kill: () => child.kill('SIGKILL') };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One trial: two writers run, both are killed at random moments (bounded), then `check` judges
 * the file. Returns the acknowledged sequence numbers of each writer.
 */
async function trial(a: Writer, b: Writer): Promise<[number[], number[]]> {
  await Promise.all([a.ready, b.ready]);
  await sleep(Math.random() * 60);
  a.kill();
  await sleep(Math.random() * 20);
  b.kill();
  await Promise.all([a.closed, b.closed]);
  return [a.acked, b.acked];
}

/** One summary line per file (kills, acknowledged writes, failures) for whoever reads the log. */
function report(file: string, acked: number, bad: number): void {
  process.stderr.write(`kill-writers ${file}: ${TRIALS * 2} kills, ${acked} acknowledged writes, ${bad} corrupt or lost\n`);
}

function temps(dir: string): string[] {
  return readdirSync(dir).filter((n) => n.endsWith('.tmp'));
}

describe.skipIf(process.platform !== 'linux')('kill -9 during every persisted write', () => {
  it('plugins.json: 100 kills of two writers, no corrupt file, no lost acknowledged toggle', async () => {
    const dir = tempDir();
    const path = join(dir, 'plugins.json');
    const write = (name: string) => `await m.updateDisabledDomains(${JSON.stringify(path)}, (d) => [...d, '${name}' + seq])`;
    const acked: string[] = [];
    let corrupt = 0;
    for (let t = 0; t < TRIALS; t++) {
      const [a, b] = await trial(writer('', write('a'), t * 1000), writer('', write('b'), t * 1000));
      acked.push(...a.map((s) => `a${s}`), ...b.map((s) => `b${s}`));
      const stored = await readPluginSettings(path).catch(() => null);
      if (stored === null) corrupt += 1;
      else expect(acked.filter((d) => !stored.disabled_domains.includes(d))).toEqual([]);
    }
    report('plugins.json', acked.length, corrupt);
    expect(corrupt).toBe(0);
    expect(acked.length).toBeGreaterThan(0);
    // The next live writer takes over the dead lock and sweeps the dead writers' temp files.
    await updateDisabledDomains(path, (d) => [...d, 'final']);
    expect(temps(dir)).toEqual([]);
  }, 120_000);

  it('the vault: 100 kills of two writers adding records, no corrupt file, no lost acknowledged record', async () => {
    const configDir = join(tempDir(), 'config');
    const vault = createVault({ configDir, key: keySourceFromHex(KEY) });
    await vault.init();
    const setup = `const vault = m.createVault({ configDir: ${JSON.stringify(configDir)}, key: m.keySourceFromHex('${KEY}') })`;
    const write = (name: string) => `await vault.add({ id: '${name}-' + seq, kind: 'github-token', values: { token: 'v' + seq } })`;
    const acked: string[] = [];
    let corrupt = 0;
    for (let t = 0; t < TRIALS; t++) {
      const [a, b] = await trial(writer(setup, write('a'), t * 1000), writer(setup, write('b'), t * 1000));
      acked.push(...a.map((s) => `a-${s}`), ...b.map((s) => `b-${s}`));
      const ids = await vault
        .list()
        .then((list) => new Set(list.map((r) => r.id)))
        .catch(() => null);
      if (ids === null) corrupt += 1;
      else expect(acked.filter((id) => !ids.has(id))).toEqual([]);
    }
    report('vault', acked.length, corrupt);
    expect(corrupt).toBe(0);
    expect(acked.length).toBeGreaterThan(0);
    // Encrypted snapshots left by killed writers are swept by the next live mutation.
    await vault.add({ id: 'final', kind: 'github-token', values: { token: 'x' } });
    expect(temps(configDir)).toEqual([]);
  }, 120_000);

  it('.ah/tasks.json: 100 kills of two writers, no corrupt store, no lost acknowledged task', async () => {
    const cwd = tempDir();
    const path = storePath(cwd);
    const write = (name: string) => `await m.upsertTask(${JSON.stringify(path)}, '${name}' + seq, 'echo ' + seq, 1)`;
    const acked: string[] = [];
    let corrupt = 0;
    for (let t = 0; t < TRIALS; t++) {
      const [a, b] = await trial(writer('', write('a'), t * 1000), writer('', write('b'), t * 1000));
      acked.push(...a.map((s) => `a${s}`), ...b.map((s) => `b${s}`));
      const names = await readStore(path)
        .then((f) => new Set(f.tasks.map((x) => x.name)))
        .catch(() => null);
      if (names === null) corrupt += 1;
      else expect(acked.filter((n) => !names.has(n))).toEqual([]);
    }
    report('tasks.json', acked.length, corrupt);
    expect(corrupt).toBe(0);
    expect(acked.length).toBeGreaterThan(0);
    await upsertTask(path, 'final', 'true', 1);
    expect(temps(join(cwd, '.ah'))).toEqual([]);
  }, 120_000);

  it('service state: 100 kills of the runtime writer and the lifecycle writer, both files valid and never behind an acknowledgement', async () => {
    const dir = join(tempDir(), 'state');
    const store = new StateStore(dir);
    const setup = `const store = new m.StateStore(${JSON.stringify(dir)})`;
    // The managed server owns runtime.json and a lifecycle operation owns lifecycle.json; both live
    // in the same directory and write at the same time. Each carries its sequence number.
    const runtime = `await store.writeRuntime({ schema_version: 1, service_id: 's', configuration_id: 'c', pid: seq, instance_id: 'i', version: '1', port: 1, started_at: 'now', ready_at: null, exit: null })`;
    const lifecycle = `await store.writeLifecycle({ schema_version: 1, operation: 'start', state: 'completed', pid: seq, started_at: 'now', finished_at: null, diagnostic_code: null })`;
    let lastRuntime = -1;
    let lastLifecycle = -1;
    let corrupt = 0;
    let behind = 0;
    let ackedWrites = 0;
    for (let t = 0; t < TRIALS; t++) {
      const [a, b] = await trial(writer(setup, runtime, t * 1000), writer(setup, lifecycle, t * 1000));
      ackedWrites += a.length + b.length;
      lastRuntime = Math.max(lastRuntime, ...a);
      lastLifecycle = Math.max(lastLifecycle, ...b);
      for (const [read, last] of [
        [await store.readRuntime(), lastRuntime],
        [await store.readLifecycle(), lastLifecycle],
      ] as const) {
        if (read.kind === 'invalid') corrupt += 1;
        // A replaced file holds the last acknowledged record or a later one, never an older one.
        else if ((read.kind === 'missing' ? -1 : read.value.pid) < last) behind += 1;
      }
    }
    report('service state', ackedWrites, corrupt + behind);
    expect(corrupt).toBe(0);
    expect(behind).toBe(0);
    expect(ackedWrites).toBeGreaterThan(0);
    // The next writer of each file sweeps the temp files the killed ones left.
    const record = await store.readRuntime();
    if (record.kind === 'ok') await store.writeRuntime(record.value);
    const op = await store.readLifecycle();
    if (op.kind === 'ok') await store.writeLifecycle(op.value);
    await store.writeCurrent('s', 'c');
    expect(temps(dir)).toEqual([]);
  }, 120_000);
});
