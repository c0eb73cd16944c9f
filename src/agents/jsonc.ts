/**
 * Edits JSON-with-comments config files in place: only the bytes of the one entry change, so
 * comments, trailing commas, key order and indentation of everything else survive (jsonc-parser
 * computes the minimal edit). A file that does not parse is refused, never rewritten.
 */
import { applyEdits, type FormattingOptions, modify, type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { AhError } from '../errors.js';

export type JsonPath = (string | number)[];

function unparsable(path: string, why: string): AhError {
  return new AhError({
    code: 'AI_CONFIG_UNPARSABLE',
    message: `${path} cannot be parsed, so it was left untouched`,
    cause: why,
    hint: 'Fix the file by hand (or move it aside) and run the command again.',
    operation: 'ai.config',
  });
}

/** Parses a config file's text (comments and trailing commas allowed); an empty file is `{}`. */
export function parseConfig(text: string, path: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true }) as unknown;
  const first = errors[0];
  if (first) throw unparsable(path, `${printParseErrorCode(first.error)} at offset ${first.offset}`);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw unparsable(path, 'the top level is not a JSON object');
  return value as Record<string, unknown>;
}

/** The value at `keys` in a parsed config, or undefined. */
export function valueAt(root: unknown, keys: readonly string[]): unknown {
  let node = root;
  for (const key of keys) {
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Indentation and line ending of the existing text, so inserted lines look like their neighbours. */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

/**
 * Sets (or, with `undefined`, removes) the value at `keys`, creating parent objects as needed.
 * `text` null means the file does not exist yet: a fresh pretty file is made.
 */
export function setAt(text: string | null, keys: JsonPath, value: unknown): string {
  const base = text === null || text.trim() === '' ? '{}\n' : text;
  const edits = modify(base, keys, value, { formattingOptions: formattingOf(text ?? '\n  x') });
  return applyEdits(base, edits);
}
