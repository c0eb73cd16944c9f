import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesRead, threadIoCounted } from '../../../test/helpers/thread-io.js';
import { suiteTempDir } from '../../../test/helpers/tmp.js';
import { literalBytes } from './byte-hits.js';
import { type ScanSpec, scanFile } from './scan.js';

const dir = suiteTempDir('ah-scan-');

const spec = (literal: string, maxBytes = 8 * 1024 * 1024): ScanSpec => ({
  literal,
  source: literal,
  flags: 'gm',
  maxBytes,
  context: 0,
  maxHits: 100,
});

function file(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

// As a literal search runs it: matched on the bytes.
const scan = (path: string, s: ScanSpec) => scanFile(s, path, { buffer: null }, null, null, literalBytes(s.literal as string));
const text = (size: number, tail = '') => Buffer.concat([Buffer.alloc(size - Buffer.byteLength(tail), 'a'), Buffer.from(tail)]);

describe('scanFile', () => {
  it('finds a hit at the very end of a file that fills the first read', () => {
    const hits = scan(file('exact.txt', text(64 * 1024, '\nneedle')), spec('needle'));
    expect(hits).toEqual([{ line: 2, column: 1, text: 'needle', before: [], after: [] }]);
  });

  it('classifies a NUL byte in the first 8 KiB as binary, and one after it as text', () => {
    const head = text(200 * 1024, 'needle');
    head[100] = 0;
    expect(scan(file('bin-head.dat', head), spec('needle'))).toBe('b');
    const late = text(200 * 1024, 'needle');
    late[9000] = 0;
    expect(scan(file('bin-late.dat', late), spec('needle'))).toHaveLength(1);
  });

  it('classifies invalid UTF-8 in the first 8 KiB as binary, in a small file and in a large one', () => {
    const small = Buffer.from('caf\xe9 needle', 'latin1');
    expect(scan(file('latin1-small.txt', small), spec('needle'))).toBe('b');
    const large = text(100 * 1024, 'needle');
    large[10] = 0xe9;
    expect(scan(file('latin1-large.txt', large), spec('needle'))).toBe('b');
  });

  it('reads a character cut by the 8 KiB window as text', () => {
    const bytes = text(100 * 1024, 'needle');
    Buffer.from('é').copy(bytes, 8191);
    expect(scan(file('cut.txt', bytes), spec('needle'))).toHaveLength(1);
  });

  it('calls a file over max_bytes large before it looks at its bytes', () => {
    const bytes = text(100 * 1024);
    bytes[0] = 0;
    expect(scan(file('large.dat', bytes), spec('needle', 70 * 1024))).toBe('l');
    expect(scan(file('large-small-limit.dat', bytes), spec('needle', 100))).toBe('l');
  });

  it.skipIf(!threadIoCounted)('leaves a binary file after its first read', () => {
    const bytes = text(4 * 1024 * 1024, 'needle');
    bytes[0] = 0;
    const path = file('big.bin', bytes);
    const before = bytesRead();
    expect(scan(path, spec('needle'))).toBe('b');
    // The first read (64 KiB) and this thread's read of its own counters, not the 4 MiB.
    expect(bytesRead() - before).toBeLessThan(80 * 1024);
    const textBefore = bytesRead();
    bytes[0] = 0x61;
    writeFileSync(path, bytes);
    expect(scan(path, spec('needle'))).toHaveLength(1);
    expect(bytesRead() - textBefore).toBeGreaterThanOrEqual(bytes.length);
  });
});
