/**
 * The one block of ah guidance inside an instructions file (CLAUDE.md, AGENTS.md, …), between two
 * exact marker lines. Everything outside the markers belongs to the user and is never touched; a
 * file whose markers do not pair up is refused rather than guessed at.
 */
import { AhError } from '../errors.js';

export const BLOCK_BEGIN = '<!-- ah:begin (managed by `ah ai install`) -->';
export const BLOCK_END = '<!-- ah:end -->';

interface Span {
  /** Offset of the begin marker. */
  start: number;
  /** Offset just past the end marker and its line break. */
  end: number;
}

function malformed(path: string, why: string): AhError {
  return new AhError({
    code: 'AI_RULES_BLOCK_MALFORMED',
    message: `the ah block in ${path} is malformed: ${why}`,
    hint: `Make ${path} hold exactly one '${BLOCK_BEGIN}' line followed by one '${BLOCK_END}' line (or neither), then run again.`,
    operation: 'ai.rules',
  });
}

function occurrences(text: string, marker: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(marker); i !== -1; i = text.indexOf(marker, i + marker.length)) found.push(i);
  return found;
}

/** Where the block is, or null; throws AI_RULES_BLOCK_MALFORMED for unpaired, repeated or reversed markers. */
export function findBlock(text: string, path: string): Span | null {
  const begins = occurrences(text, BLOCK_BEGIN);
  const ends = occurrences(text, BLOCK_END);
  if (begins.length === 0 && ends.length === 0) return null;
  if (begins.length !== 1 || ends.length !== 1) {
    throw malformed(path, `found ${begins.length} begin and ${ends.length} end markers`);
  }
  const start = begins[0] as number;
  const endMarker = ends[0] as number;
  if (endMarker < start) throw malformed(path, 'the end marker comes before the begin marker');
  let end = endMarker + BLOCK_END.length;
  if (text.startsWith('\r\n', end)) end += 2;
  else if (text.startsWith('\n', end)) end += 1;
  return { start, end };
}

function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

function renderBlock(body: string, eol: string): string {
  const lines = body.replace(/\s+$/, '').split(/\r?\n/);
  return [BLOCK_BEGIN, ...lines, BLOCK_END].join(eol) + eol;
}

/** The text with the block set to `body`: replaced in place, or appended after a blank line. */
export function upsertBlock(text: string | null, body: string, path: string): string {
  const current = text ?? '';
  const eol = eolOf(current);
  const block = renderBlock(body, eol);
  const span = findBlock(current, path);
  if (span) return current.slice(0, span.start) + block + current.slice(span.end);
  if (current.trim() === '') return block;
  const trimmed = current.replace(/(\r?\n)+$/, '');
  return trimmed + eol + eol + block;
}

/** The text without the block (and without the blank line that separated it); unchanged when absent. */
export function stripBlock(text: string, path: string): string {
  const span = findBlock(text, path);
  if (!span) return text;
  const before = text.slice(0, span.start);
  const after = text.slice(span.end);
  if (after.trim() !== '') return before + after;
  // The block was last: drop the separator we added, keep one final line break.
  const kept = before.replace(/(\r?\n)+$/, '');
  return kept === '' ? '' : kept + eolOf(text);
}
