import { describe, expect, it } from 'vitest';
import { prefilterFor, sharedRun } from './prefilter.js';

const b = (s: string) => Buffer.from(s, 'utf8');
/** What the prefilter must answer: one indexOf per literal. */
const reference = (literals: string[], text: string) => literals.some((l) => text.includes(l));

describe('search prefilter', () => {
  it('anchors on the longest run every literal shares', () => {
    expect(sharedRun([b('useEffect('), b('useState(')])?.toString()).toBe('use');
    expect(sharedRun([b('getUser'), b('setUser')])?.toString()).toBe('etUser');
    expect(sharedRun([b('TODO'), b('FIXME')])).toBeNull();
    // Two shared bytes are too common to anchor on.
    expect(sharedRun([b('abXY'), b('cdXY')])).toBeNull();
  });

  it('answers as one indexOf per literal would, whatever the anchor', () => {
    const cases: Array<[string[], string[]]> = [
      [
        ['useEffect(', 'useState('],
        ['', 'use', 'useEffect', 'x useState( y', 'useuseEffect(', 'usState(', 'a useEffect(', 'useStat'],
      ],
      [
        ['getUser', 'setUser', 'etUserX'],
        ['etUser', 'getUse', 'xsetUser', 'etUserX', 'aetUserb', 'getUser'],
      ],
      // The anchor occurs twice in a literal, and a literal is the anchor itself.
      [
        ['abcabc', 'abc'],
        ['ab', 'abc', 'xxabcxx', 'abcab'],
      ],
      [
        ['TODO', 'FIXME'],
        ['todo', 'a FIXME', 'TODO:', 'FIXM'],
      ],
      // Multi-byte UTF-8 around the anchor.
      [
        ['préfixe-α', 'préfixe-β'],
        ['préfixe-', 'xx préfixe-β', 'préfixe-γ', 'préfixe-α'],
      ],
    ];
    for (const [literals, texts] of cases) {
      const test = prefilterFor(literals.map(b));
      for (const text of texts) expect(test(b(text)), `${literals} in ${JSON.stringify(text)}`).toBe(reference(literals, text));
    }
  });

  it('falls back to one pass per literal when the anchor is everywhere, and still finds the literal', () => {
    const test = prefilterFor([b('useEffect('), b('useState(')]);
    const noisy = 'use '.repeat(10_000);
    expect(test(b(noisy))).toBe(false);
    // Past the point where the anchor's budget runs out, and straddling it.
    expect(test(b(`${noisy}useState(`))).toBe(true);
    for (let cut = 0; cut < 40; cut += 1) {
      const text = `${'use '.repeat(30 + cut)}xuseEffect(`;
      expect(test(b(text))).toBe(reference(['useEffect(', 'useState('], text));
    }
  });

  it('finds a literal that starts before the place the fallback resumes from', () => {
    // The anchor sits late in one literal (offset 6) and early in the other (offset 0).
    const literals = ['prefixanchor', 'anchorsuffix'];
    const test = prefilterFor(literals.map(b));
    for (let budgetUse = 30; budgetUse < 60; budgetUse += 1) {
      const text = `${'anchor '.repeat(budgetUse)}prefixanchor`;
      expect(test(b(text))).toBe(true);
    }
  });
});
