/**
 * Symbol extraction from a file's text: the language's rules (languages.ts) run as global
 * multiline regexes over the whole text, each compiled once per process and reused (compilation
 * dominates for small files). Matches become `{kind, line, name}`; when two rules name the same
 * symbol on the same line the earlier rule wins; the result is in line order.
 */
import { type Language, languageOf, type Rule } from './languages.js';

export interface SymbolEntry {
  kind: string;
  line: number;
  name: string;
}

/** Symbols found, each with the rule index and the offset that order it. */
type Found = { entry: SymbolEntry; order: number; pos: number }[];

interface Compiled {
  rule: Rule;
  re: RegExp;
}

// Immutable once built. A cache, not state: the same input gives the same output.
const compiledCache = new Map<Language, Compiled[]>();

function compiled(language: Language): Compiled[] {
  let list = compiledCache.get(language);
  if (list === undefined) {
    list = language.rules.map((rule) => ({ rule, re: new RegExp(rule.re, `gm${rule.flags ?? ''}`) }));
    compiledCache.set(language, list);
  }
  return list;
}

/** Words a method-shaped line can start with that are control flow, not definitions. */
const KEYWORDS = new Set([
  ...'if for while switch catch function return with do else typeof new'.split(' '),
  ...'await yield super import throw void case elif foreach using lock sizeof'.split(' '),
]);

/** Line numbers from offsets: the newline offsets, found once per text and searched by halves. */
class Lines {
  private starts: number[] | null = null;
  constructor(private readonly text: string) {}

  at(offset: number): number {
    if (this.starts === null) {
      const starts: number[] = [];
      for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) starts.push(i);
      this.starts = starts;
    }
    // Number of newlines before offset, plus one.
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((starts[mid] as number) < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  }
}

export function extractSymbols(path: string, text: string): SymbolEntry[] {
  const language = languageOf(path);
  return language === undefined ? [] : extractWith(language, text);
}

function extractWith(language: Language, text: string): SymbolEntry[] {
  const lines = new Lines(text);
  const found: Found = [];
  const rules = compiled(language);
  for (let r = 0; r < rules.length; r += 1) {
    const { rule, re } = rules[r] as Compiled;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) re.lastIndex += 1;
      const groups = m.groups as Record<string, string | undefined>;
      let name = groups.n;
      if (name === undefined || name === '' || (rule.guard && KEYWORDS.has(name))) continue;
      if (groups.t !== undefined) name = `${groups.t}.${name}`;
      // A private member `#x` is named x (as ctags and editors show it).
      else if (name.charCodeAt(0) === 35 /* # */ && name.length > 1) name = name.slice(1);
      const first = m[0].charCodeAt(0);
      const kind = groups.k ?? (rule.indented !== undefined && (first === 32 || first === 9) ? rule.indented : rule.kind);
      found.push({ entry: { kind, line: lines.at(m.index), name: name.trim() }, order: r, pos: m.index });
    }
  }
  if (language.scanner === 'json') scanJson(text, lines, found);
  else if (language.scanner === 'markdown') scanMarkdown(text, found);
  else if (language.scanner === 'go-type-block') scanGoTypeBlocks(text, lines, found);
  else if (language.scanner === 'js-assigned') scanAssignedFunctions(text, lines, found);
  // Line order, then position on the line; the earlier rule first when both start at one place.
  found.sort((a, b) => a.entry.line - b.entry.line || a.pos - b.pos || a.order - b.order);
  const out: SymbolEntry[] = [];
  const seen = new Set<string>();
  let previous: SymbolEntry | undefined;
  for (const { entry } of found) {
    const key = `${entry.line}\0${entry.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (language.collapseRepeats && previous !== undefined && previous.name === entry.name && previous.kind === entry.kind) continue;
    out.push(entry);
    previous = entry;
  }
  return out;
}

/** Keys of the top-level object: a character scan that tracks depth and skips string contents. */
function scanJson(text: string, lines: Lines, found: Found): void {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const start = i;
      for (i += 1; i < text.length; i += 1) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i += 1;
        else if (d === 34) break;
      }
      if (depth !== 1) continue;
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j] as string)) j += 1;
      if (text[j] !== ':') continue;
      let name: string;
      try {
        name = JSON.parse(text.slice(start, i + 1)) as string;
      } catch {
        name = text.slice(start + 1, i);
      }
      found.push({ entry: { kind: 'key', line: lines.at(start), name }, order: 0, pos: start });
    } else if (c === 123 /* { */ || c === 91 /* [ */) depth += 1;
    else if (c === 125 /* } */ || c === 93 /* ] */) depth -= 1;
  }
}

const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;
const HEADING = /^[ \t]{0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;

/** ATX headings outside fenced code blocks. */
function scanMarkdown(text: string, found: Found): void {
  let fence: string | null = null;
  let line = 0;
  for (const raw of text.split('\n')) {
    line += 1;
    const fenceMatch = FENCE.exec(raw);
    if (fenceMatch) {
      const marker = fenceMatch[1] as string;
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = HEADING.exec(raw.replace(/\r$/, ''));
    if (heading) found.push({ entry: { kind: 'heading', line, name: heading[2] as string }, order: 0, pos: 0 });
  }
}

const GO_TYPE_BLOCK = /^type[ \t]*\([ \t]*(?:\/\/[^\n]*)?\n([\s\S]*?)^\)/gm;
const GO_BLOCK_ENTRY = /^(?:\t| {1,4})(?<n>[A-Za-z_]\w*)(?:\[[^\]\n]*\])?[ \t]+(?:=[ \t]*)?(?<k>struct|interface)?/gm;

/** Types declared inside `type ( … )` groups. */
function scanGoTypeBlocks(text: string, lines: Lines, found: Found): void {
  if (!text.includes('type (') && !text.includes('type(')) return;
  GO_TYPE_BLOCK.lastIndex = 0;
  for (let block = GO_TYPE_BLOCK.exec(text); block !== null; block = GO_TYPE_BLOCK.exec(text)) {
    const body = block[1] as string;
    const base = block.index + block[0].indexOf(body);
    GO_BLOCK_ENTRY.lastIndex = 0;
    let depth = 0;
    let offset = 0;
    for (const row of body.split('\n')) {
      if (depth === 0) {
        GO_BLOCK_ENTRY.lastIndex = 0;
        const m = GO_BLOCK_ENTRY.exec(row);
        if (m?.index === 0 && m.groups?.n !== undefined) {
          found.push({
            entry: { kind: m.groups.k ?? 'type', line: lines.at(base + offset), name: m.groups.n },
            order: 0,
            pos: base + offset,
          });
        }
      }
      for (const ch of row) {
        if (ch === '{') depth += 1;
        else if (ch === '}') depth = Math.max(0, depth - 1);
      }
      offset += row.length + 1;
    }
  }
}

const ASSIGNED_FUNCTION = /([:=])[ \t]*(?:async[ \t]+)?function\b/g;
const IDENT_CHAR = /[\w$]/;

/**
 * `name: function`, `[Symbol.x]: function`, `x = function`, `a.b.c = function` (named c), found
 * from the `:` or `=` backwards so the search itself starts at a cheap literal.
 */
function scanAssignedFunctions(text: string, lines: Lines, found: Found): void {
  if (!text.includes('function')) return;
  ASSIGNED_FUNCTION.lastIndex = 0;
  for (let m = ASSIGNED_FUNCTION.exec(text); m !== null; m = ASSIGNED_FUNCTION.exec(text)) {
    const colon = m[1] === ':';
    let end = m.index;
    // `==`, `!=`, `<=`, `>=`, `+=` … are not assignments.
    if (!colon && /[=!<>+\-*/%&|^?]/.test(text[end - 1] ?? '')) continue;
    while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end -= 1;
    let start = end;
    let name: string;
    if (colon && text[end - 1] === ']') {
      start = text.lastIndexOf('[', end - 1);
      if (start === -1 || end - start > 80) continue;
      name = text.slice(start, end);
      if (!/^\[[\w$.]+\]$/.test(name)) continue;
    } else {
      while (start > 0 && IDENT_CHAR.test(text[start - 1] as string)) start -= 1;
      name = text.slice(start, end);
      if (name === '' || /^\d/.test(name)) continue;
    }
    const before = text[start - 1] ?? '';
    // A key must be a whole name (not `a.b:`); an assignment may be to a member (`a.b =`).
    if (IDENT_CHAR.test(before) || (colon && before === '.')) continue;
    if (KEYWORDS.has(name)) continue;
    found.push({ entry: { kind: colon ? 'method' : 'function', line: lines.at(start), name }, order: 100, pos: start });
  }
}
