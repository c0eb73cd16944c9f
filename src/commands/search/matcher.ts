/** Finds matching lines in a file: one hit per line, with 1-based line and character column. */
import { AhError } from '../../errors.js';

export interface LineHit {
  line: number;
  /** 1-based column in characters (code points). */
  column: number;
  text: string;
}

export interface Matcher {
  /** Quick byte-level rejection (exact literal only); true when the file may match. */
  mayMatch(bytes: Buffer): boolean;
  /** Hits in order; stops after `max` hits. */
  hits(text: string, max: number): LineHit[];
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compileRegex(source: string, ignoreCase: boolean): RegExp {
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

function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
  }
  return count;
}

export function createMatcher(pattern: string, regex: boolean, ignoreCase: boolean): Matcher {
  const exactLiteral = !regex && !ignoreCase;
  const needle = Buffer.from(pattern, 'utf8');
  const re = exactLiteral ? null : compileRegex(regex ? pattern : escapeRegex(pattern), ignoreCase);
  const find = (text: string, from: number): { index: number; length: number } | null => {
    if (re === null) {
      const index = text.indexOf(pattern, from);
      return index === -1 ? null : { index, length: pattern.length };
    }
    re.lastIndex = from;
    const m = re.exec(text);
    return m ? { index: m.index, length: m[0].length } : null;
  };
  return {
    mayMatch: (bytes) => !exactLiteral || bytes.indexOf(needle) !== -1,
    hits(text, max) {
      const hits: LineHit[] = [];
      let line = 1;
      let counted = 0;
      let from = 0;
      while (from <= text.length && hits.length < max) {
        const found = find(text, from);
        if (!found) break;
        // Count newlines between the last counted position and the hit.
        for (let i = text.indexOf('\n', counted); i !== -1 && i < found.index; i = text.indexOf('\n', i + 1)) line += 1;
        const lineStart = text.lastIndexOf('\n', found.index - 1) + 1;
        let lineEnd = text.indexOf('\n', found.index);
        if (lineEnd === -1) lineEnd = text.length;
        const raw = text.slice(lineStart, lineEnd);
        hits.push({ line, column: codePoints(text.slice(lineStart, found.index)) + 1, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw });
        counted = lineEnd;
        if (lineEnd >= text.length) break;
        line += 1;
        counted = lineEnd + 1;
        from = lineEnd + 1;
      }
      return hits;
    },
  };
}
