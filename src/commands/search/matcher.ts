/**
 * Turns the search inputs into a ScanSpec (plain data a worker can take), validating the regex.
 *
 * Which regex engine, and why (measured on Node 20.20, V8 11.3, `(a+)+$` on 'a' x n + '!'):
 * - V8's default backtracking engine: full ECMAScript syntax (the `u` flag, lookaround,
 *   back-references), and exponential on such patterns: n = 20 takes 0.17 s, n = 24 4.3 s.
 * - V8's linear-time engine (`--enable-experimental-regexp-engine`, flag `l`, or the automatic
 *   fallback `--enable-experimental-regexp-engine-on-excessive-backtracks`): linear (n = 100,000
 *   in 59 ms), but in this V8 it refuses the `u` and `i` flags, lookaround, back-references and
 *   large counted repetitions, so it would serve neither --ignore-case nor the Unicode patterns
 *   compiled below, and it is a process-wide V8 flag, not one a worker can set for itself.
 * - ripgrep's engine: linear, but another binary and another syntax (no lookaround or
 *   back-references): patterns that work today would be refused or mean something else.
 * So user patterns stay on V8's engine, and no match can outlive its call instead: a worker still
 * inside an ended search after a short grace is terminated and replaced (parallel.ts), and work on
 * the calling thread is stopped at the deadline or on Ctrl-C (interruptible.ts).
 */
import { AhError } from '../../errors.js';
import { escapeRegex } from '../../platform/text.js';
import type { ScanSpec } from './scan.js';

export function compileRegex(source: string, ignoreCase: boolean): RegExp {
  const flags = `gm${ignoreCase ? 'i' : ''}`;
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    try {
      // Patterns written for non-Unicode engines (e.g. `\-`) still work without the u flag.
      return new RegExp(source, flags);
    } catch (error) {
      throw new AhError({
        code: 'REGEX_INVALID',
        message: `invalid regular expression: ${source}`,
        cause: (error as Error).message,
        hint: 'Fix the pattern, or drop --regex to search for the literal text.',
      });
    }
  }
}

const PLAIN = /^[A-Za-z0-9_ ,:;=<>!@#%&'"~`-]$/;
const PUNCT = /^[.()[\]{}*+?^$|\\/-]$/;
const QUANT = /^[?*+{]$/;
/** Single-character escapes that match something other than themselves (classes, anchors, controls). */
const SIMPLE_ESCAPE = /^[dDwWsSbBnrtfv]$/;
/** Most alternatives a prefilter set may hold. */
const MAX_SET = 16;

/** Index of the `)` closing the group opened at `open`, or -1. */
function closeOf(source: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < source.length; i += 1) {
    const c = source[i];
    if (c === '\\') i += 1;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Splits source[from, to) at its top-level `|`. */
function alternativesOf(source: string, from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let depth = 0;
  let inClass = false;
  let start = from;
  for (let i = from; i < to; i += 1) {
    const c = source[i];
    if (c === '\\') i += 1;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth += 1;
    else if (c === ')') depth -= 1;
    else if (c === '|' && depth === 0) {
      out.push([start, i]);
      start = i + 1;
    }
  }
  out.push([start, to]);
  return out;
}

/** The strings source[from, to) matches when it is plain literals and alternation only, else null. */
function pureLiterals(source: string, from: number, to: number): string[] | null {
  const out: string[] = [];
  for (const [start, end] of alternativesOf(source, from, to)) {
    let text = '';
    for (let i = start; i < end; i += 1) {
      const c = source[i] as string;
      if (QUANT.test(source[i + (c === '\\' ? 2 : 1)] ?? '')) return null;
      if (c === '\\' && PUNCT.test(source[i + 1] ?? '')) {
        text += source[i + 1];
        i += 1;
      } else if (PLAIN.test(c)) text += c;
      else return null;
    }
    out.push(text);
  }
  return out;
}

const shortest = (set: readonly string[]) => Math.min(...set.map((s) => s.length));

/** The best set of literals one of which every match of the sequence source[from, to) contains. */
function sequenceSet(source: string, from: number, to: number): string[] | null {
  let best: string[] | null = null;
  let current: string[] = [''];
  const end = () => {
    if (shortest(current) > 0 && (best === null || shortest(current) > shortest(best))) best = current;
    current = [''];
  };
  const append = (tails: readonly string[]) => {
    const next = [...new Set(current.flatMap((head) => tails.map((tail) => head + tail)))];
    if (next.length <= MAX_SET) current = next;
    else {
      end();
      current = tails.length <= MAX_SET ? [...tails] : [''];
    }
  };
  for (let i = from; i < to; i += 1) {
    const c = source[i] as string;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (PUNCT.test(next) && !QUANT.test(source[i + 2] ?? '')) append([next]);
      else if (PUNCT.test(next) || SIMPLE_ESCAPE.test(next)) end();
      else {
        // \x41, \u{…}, \p{…}, \k<…>, back-references: stop here rather than parse them.
        end();
        return best;
      }
      i += 1;
      continue;
    }
    if (c === '[') {
      end();
      let j = i + 1;
      while (j < to && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      i = j;
      continue;
    }
    if (c === '{') {
      // A quantifier body ({2}, {1,3}); what it applied to has already ended the run.
      end();
      const close = source.indexOf('}', i);
      if (close === -1 || close >= to) return best;
      i = close;
      continue;
    }
    if (c === '(') {
      const close = closeOf(source, i);
      if (close === -1 || close >= to) return best;
      let inner = i + 1;
      let usable = true;
      if (source[i + 1] === '?') {
        if (source[i + 2] === ':') inner = i + 3;
        else if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') inner = source.indexOf('>', i) + 1;
        else usable = false;
      }
      const tails = usable && inner > i && !QUANT.test(source[close + 1] ?? '') ? pureLiterals(source, inner, close) : null;
      if (tails === null) end();
      else append(tails);
      i = close;
      continue;
    }
    if (PLAIN.test(c) && !QUANT.test(source[i + 1] ?? '')) {
      append([c]);
      continue;
    }
    end();
  }
  end();
  return best;
}

/**
 * Literals at least one of which every match of `source` contains, or null: for each top-level
 * alternative, the run of plain characters (times the alternatives of literal-only groups inside it)
 * whose shortest member is longest. Anything not understood ends a run, so the answer is
 * conservative; a null or weak answer only costs speed. Case-sensitive patterns only; ASCII only.
 */
export function requiredLiterals(source: string): string[] | null {
  const out = new Set<string>();
  for (const [from, to] of alternativesOf(source, 0, source.length)) {
    const set = sequenceSet(source, from, to);
    if (set === null || shortest(set) < 2) return null;
    for (const s of set) out.add(s);
  }
  return out.size <= MAX_SET ? [...out] : null;
}

export function createSpec(
  pattern: string,
  options: Pick<ScanSpec, 'maxBytes' | 'context' | 'maxHits'> & { regex: boolean; ignoreCase: boolean },
): ScanSpec {
  const exactLiteral = !options.regex && !options.ignoreCase;
  const re = exactLiteral ? null : compileRegex(options.regex ? pattern : escapeRegex(pattern), options.ignoreCase);
  return {
    literal: exactLiteral ? pattern : null,
    source: re?.source ?? '',
    flags: re?.flags ?? '',
    required: re === null || options.ignoreCase ? null : requiredLiterals(re.source),
    maxBytes: options.maxBytes,
    context: options.context,
    maxHits: options.maxHits,
  };
}
