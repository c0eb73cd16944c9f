import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/tmp.js';
import { createSpec, requiredLiterals } from './matcher.js';
import { prefilterFor } from './prefilter.js';
import { type ScanSpec, type ScanState, scanFile } from './scan.js';

/** Each file's result, with the spec's required literals as the byte prefilter (as engine.ts does). */
function scanEach(spec: ScanSpec, paths: readonly string[], state: ScanState) {
  const holdsLiteral = spec.required ? prefilterFor(spec.required.map((l) => Buffer.from(l, 'utf8'))) : null;
  const re = new RegExp(spec.source, spec.flags);
  return paths.map((path) => scanFile(spec, path, state, holdsLiteral, re, null));
}

describe('requiredLiterals', () => {
  it('finds literals one of which every match contains, or none', () => {
    const cases: Array<[string, string[] | null]> = [
      ['use(Effect|State)\\(', ['useEffect(', 'useState(']],
      ['TODO|FIXME', ['TODO', 'FIXME']],
      ['TODO|x', null],
      ['createRequire', ['createRequire']],
      ['abc?d', ['ab']],
      ['ab\\(?cd', ['ab']],
      ['a\\.b', ['a.b']],
      ['^import\\s+\\{ x', ['import']],
      ['[abc]+def(g|h)ij', ['defgij', 'defhij']],
      ['(?<=foo)barbaz', ['barbaz']],
      ['(?:ab|cd)ef', ['abef', 'cdef']],
      ['(?<n>ab|cd)ef', ['abef', 'cdef']],
      ['(ab|cd)?efg', ['efg']],
      ['(a.|cd)efg', ['efg']],
      ['x*', null],
      ['a{2,3}b', null],
      ['ab{2,3}cd', ['cd']],
      ['\\bword\\b', ['word']],
      ['\\d+px', ['px']],
      ['\\x41bcd', null],
      ['xy\\u{41}bcd', ['xy']],
      ['caf\u00e9s', ['caf']],
      ['cafe\u00e9s', ['cafe']],
      ['(a|b|c|d|e)(f|g|h|i)', null],
    ];
    for (const [source, expected] of cases) expect([source, requiredLiterals(source)]).toEqual([source, expected]);
  });

  it('is only used for case-sensitive regexes', () => {
    const base = { maxBytes: 1 << 20, context: 0, maxHits: 100 };
    expect(createSpec('foo.bar', { ...base, regex: true, ignoreCase: false }).required).toEqual(['foo']);
    expect(createSpec('foo.bar', { ...base, regex: true, ignoreCase: true }).required).toBeNull();
    expect(createSpec('foo', { ...base, regex: false, ignoreCase: false }).required).toBeNull();
  });

  it('gives the same results as matching without the prefilter (binary classification included)', () => {
    const dir = tempDir();
    const files = {
      hit: 'const x = useState(1);\n',
      miss: 'nothing to see\n',
      lateInvalid: Buffer.concat([Buffer.from('a'.repeat(9000)), Buffer.from([0xff, 0xfe]), Buffer.from('\nno match\n')]),
      lateInvalidHit: Buffer.concat([Buffer.from('a'.repeat(9000)), Buffer.from([0xff]), Buffer.from('\nuseEffect(\n')]),
      binary: Buffer.from([0, 1, 2, 3]),
      unicode: 'caf\u00e9 useEffect(() => {})\n',
    };
    const paths = Object.entries(files).map(([name, content]) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    });
    const spec = createSpec('use(Effect|State)\\(', { regex: true, ignoreCase: false, maxBytes: 1 << 20, context: 1, maxHits: 100 });
    expect(spec.required).toEqual(['useEffect(', 'useState(']);
    const state = { buffer: null };
    const withPrefilter = scanEach(spec, paths, state);
    const without = scanEach({ ...spec, required: null }, paths, state);
    expect(withPrefilter).toEqual(without);
    expect(withPrefilter.slice(2, 5)).toEqual(['b', 'b', 'b']);
  });
});
