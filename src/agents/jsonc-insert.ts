/**
 * Sets one property in JSON-with-comments text without touching a byte of anything else.
 * jsonc-parser's `modify` either inserts compact JSON on the neighbour's line (no formatting) or
 * re-formats the neighbour's whole line (with formatting), which rewrites the user's other
 * entries; so the insertion text is built here, indented like its siblings, on its own lines.
 */
import { findNodeAtLocation, type Node, parseTree } from 'jsonc-parser';

interface Style {
  eol: string;
  unit: string;
}

function styleOf(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  return { eol, unit: indent === undefined ? '  ' : indent.startsWith('\t') ? '\t' : indent };
}

/** The leading whitespace of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

function pretty(value: unknown, indent: string, style: Style): string {
  return JSON.stringify(value, null, style.unit).split('\n').join(`${style.eol}${indent}`);
}

/** Offset of the end of the line after `from` when only blanks and comments follow; else null. */
function restOfLineEnd(text: string, from: number): number | null {
  let i = from;
  for (;;) {
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text.startsWith('//', i)) {
      const nl = text.indexOf('\n', i);
      return nl === -1 ? text.length : text[nl - 1] === '\r' ? nl - 1 : nl;
    }
    if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      if (close === -1) return null;
      i = close + 2;
      continue;
    }
    if (i >= text.length || text[i] === '\n' || text.startsWith('\r\n', i)) return i;
    return null;
  }
}

/** Offset just past a comma that follows `from` (blanks and comments allowed between), or null. */
function commaAfter(text: string, from: number): number | null {
  let i = from;
  for (;;) {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    if (text.startsWith('//', i)) {
      const nl = text.indexOf('\n', i);
      i = nl === -1 ? text.length : nl;
      continue;
    }
    if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      if (close === -1) return null;
      i = close + 2;
      continue;
    }
    return text[i] === ',' ? i + 1 : null;
  }
}

function splice(text: string, at: number, remove: number, insert: string): string {
  return text.slice(0, at) + insert + text.slice(at + remove);
}

function nest(keys: readonly string[], value: unknown): unknown {
  return keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

/** Adds `"key": value` as the last property of `object`. */
function addProperty(text: string, object: Node, key: string, value: unknown, style: Style): string {
  const props = object.children ?? [];
  const last = props[props.length - 1];
  if (last === undefined) {
    const outer = lineIndent(text, object.offset);
    const inner = outer + style.unit;
    const body = `${style.eol}${inner}${JSON.stringify(key)}: ${pretty(value, inner, style)}${style.eol}${outer}`;
    return splice(text, object.offset + 1, object.length - 2, body);
  }
  const indent = lineIndent(text, last.offset);
  const end = last.offset + last.length;
  const comma = commaAfter(text, end);
  const lineEnd = restOfLineEnd(text, comma ?? end);
  if (lineEnd === null) {
    // Siblings share a line: join them there, compactly.
    const at = comma ?? end;
    return splice(text, at, 0, `${comma === null ? ',' : ''} ${JSON.stringify(key)}: ${JSON.stringify(value)}${comma === null ? '' : ','}`);
  }
  // Own line after the last sibling; keep the file's trailing-comma habit.
  const line = `${style.eol}${indent}${JSON.stringify(key)}: ${pretty(value, indent, style)}${comma === null ? '' : ','}`;
  const withLine = splice(text, lineEnd, 0, line);
  return comma === null ? splice(withLine, end, 0, ',') : withLine;
}

/** `text` with `value` at `keys` (parents created); null text means a new file. */
export function insertAt(text: string | null, keys: readonly string[], value: unknown): string {
  const style = styleOf(text ?? '');
  if (text === null || text.trim() === '') return `${pretty(nest(keys, value), '', style)}${style.eol}`;
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false }) as Node;
  let object = root;
  let depth = 0;
  while (depth < keys.length - 1) {
    const child = findNodeAtLocation(object, [keys[depth] as string]);
    if (child?.type !== 'object') break;
    object = child;
    depth++;
  }
  const key = keys[depth] as string;
  const existing = findNodeAtLocation(object, [key]);
  const rest = nest(keys.slice(depth + 1), value);
  if (existing !== undefined && (depth === keys.length - 1 || existing.type !== 'object')) {
    // Replace the value in place, indented like its property.
    const indent = lineIndent(text, existing.parent?.offset ?? existing.offset);
    return splice(text, existing.offset, existing.length, pretty(rest, indent, style));
  }
  return addProperty(text, object, key, rest, style);
}

/** Offset of the start of the line holding `offset` when only blanks precede it there; else null. */
function ownLineStart(text: string, offset: number): number | null {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(start, offset)) ? start : null;
}

/**
 * `text` without the property at `keys` (unchanged when absent). A property on lines of its own
 * goes with those lines; the comma it needed on its neighbour goes too when it was the last one.
 * Comments on other lines are never touched.
 */
export function removeAt(text: string, keys: readonly string[]): string {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const value = root === undefined ? undefined : findNodeAtLocation(root, [...keys]);
  const property = value?.parent;
  const object = property?.parent;
  if (value === undefined || property === undefined || object === undefined) return text;
  const siblings = object.children ?? [];
  const index = siblings.indexOf(property);
  const previous = siblings[index - 1];
  const isLast = index === siblings.length - 1;
  const end = property.offset + property.length;
  const comma = commaAfter(text, end);
  const lineStart = ownLineStart(text, property.offset);
  const lineEnd = restOfLineEnd(text, comma ?? end);
  if (lineStart !== null && lineEnd !== null && (previous !== undefined || !isLast)) {
    let next = text.slice(0, lineStart) + text.slice(text.startsWith('\r\n', lineEnd) ? lineEnd + 2 : lineEnd + 1);
    if (isLast && comma === null && previous !== undefined) {
      // We were the last member without a trailing comma: the comma before us must go too.
      const prevComma = commaAfter(next, previous.offset + previous.length);
      if (prevComma !== null) next = splice(next, prevComma - 1, 1, '');
    }
    return next;
  }
  if (comma !== null) {
    // Same-line neighbours (or an only member): drop `"key": value,` and the blanks after it.
    let stop = comma;
    while (text[stop] === ' ' || text[stop] === '\t') stop++;
    return splice(text, property.offset, stop - property.offset, '');
  }
  if (previous !== undefined) {
    const from = previous.offset + previous.length;
    return splice(text, from, end - from, '');
  }
  // The only member: leave the object empty as `{}`.
  return splice(text, object.offset + 1, object.length - 2, '');
}
