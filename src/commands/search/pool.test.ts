import { isAscii, isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../catalog/schema.js';
import { looksLikeText, SNIFF_BYTES } from '../../platform/text.js';
import { testContext } from '../../../test/helpers/context.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { createSpec } from './matcher.js';
import { ScanPool, scanInline } from './pool.js';
import { type ScanDeps, sniffText } from './scan.js';
import { text } from './text.js';

const deps: ScanDeps = { openSync, fstatSync, readSync, closeSync, isAscii, isUtf8 };
const spec = (pattern: string, regex = false) =>
  createSpec(pattern, { regex, ignoreCase: false, maxBytes: 1 << 20, context: 0, maxHits: 100 });

function tree(files: number, lines: number): string[] {
  const dir = tempDir();
  const paths: string[] = [];
  for (let f = 0; f < files; f += 1) {
    const path = join(dir, `f${f}.txt`);
    writeFileSync(path, `${'alpha beta gamma delta\n'.repeat(lines)}${f % 3 === 0 ? 'needle here\n' : ''}`);
    paths.push(path);
  }
  return paths;
}

describe('search worker pool', () => {
  const pool = new ScanPool(2);
  afterAll(() => pool.close());

  it('scans chunks in worker threads with the same results as inline', async () => {
    const paths = tree(12, 50);
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    for (const s of [spec('needle'), spec('ne+dle', true)]) {
      const viaWorkers = await pool.scan(s, paths, cancel);
      const inline = await scanInline(s, paths, cancel);
      expect(viaWorkers).toEqual(inline);
      expect(viaWorkers?.filter((r) => Array.isArray(r))).toHaveLength(4);
    }
    // Really in workers: none failed to start (a failure would fall back to inline scanning).
    expect(pool.failureCount).toBe(0);
  });

  it('stops a running chunk and drops queued ones when cancelled', async () => {
    const paths = tree(400, 2000);
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    const jobs = Array.from({ length: 6 }, () => pool.scan(spec('nomatch-(x|y)+z', true), paths, cancel));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const started = performance.now();
    pool.cancel(cancel);
    const results = await Promise.all(jobs);
    expect(performance.now() - started).toBeLessThan(2000);
    // At least the queued chunks were dropped; a chunk may have finished before the flag was set.
    expect(results.filter((r) => r === null).length).toBeGreaterThanOrEqual(4);
    // The pool keeps working for other searches.
    const after = await pool.scan(spec('needle'), paths.slice(0, 3), new Int32Array(new SharedArrayBuffer(4)));
    expect(after?.[0]).toMatchObject([{ line: 2001, column: 1, text: 'needle here' }]);
  });

  it('cancels a whole search from its AbortSignal while workers are busy', async () => {
    const dir = tempDir();
    for (let d = 0; d < 20; d += 1) {
      mkdirSync(join(dir, `d${d}`));
      for (let f = 0; f < 40; f += 1) writeFileSync(join(dir, `d${d}`, `f${f}.txt`), 'lorem ipsum dolor\n'.repeat(3000));
    }
    const ctx = testContext({ cwd: dir });
    const input = { pattern: 'ipsum (x|y)+z', regex: true };
    compile(text.inputSchema)(input);
    const running = text.run(input as never, ctx);
    setTimeout(() => ctx.controller.abort(new Error('stop now')), 20);
    const started = performance.now();
    await expect(running).rejects.toThrow('stop now');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('sniffText', () => {
  it('agrees with looksLikeText', () => {
    const samples: Buffer[] = [
      Buffer.from('plain ascii\n'),
      Buffer.from('héllo wörld ✓ 😀\n'),
      Buffer.from([0x61, 0x00]),
      Buffer.from([0xc3, 0x28]),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from([0xc0, 0xaf]),
      Buffer.from([0x61, 0xe2, 0x82]),
    ];
    // Multi-byte characters cut (or broken) at the sniff window's edge, in files longer than it.
    for (const tail of [[0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc3], [0x80], [0xe0, 0x80], [0xf5, 0x80], [0xe2, 0x28]]) {
      const head = Buffer.alloc(SNIFF_BYTES - tail.length, 0x61);
      samples.push(Buffer.concat([head, Buffer.from(tail), Buffer.from('more text')]));
      samples.push(Buffer.concat([head, Buffer.from(tail)]));
    }
    for (const bytes of samples) {
      expect(sniffText(deps, bytes), bytes.subarray(-4).toString('hex')).toBe(
        looksLikeText(bytes.subarray(0, SNIFF_BYTES), bytes.length <= SNIFF_BYTES),
      );
    }
  });
});
