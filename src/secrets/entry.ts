/**
 * Asks for each field of a record kind at the prompts. Creating: required fields are asked again
 * when left empty, optional ones may be skipped; a malformed port or sslmode is asked again too. Editing: every field may be left empty, which
 * keeps the stored value.
 */
import { AhError } from '../errors.js';
import type { Prompter } from './prompt.js';
import { fieldProblem } from './records.js';
import { KIND_FIELDS, type SecretKind } from './types.js';

const ATTEMPTS = 3;

export async function enterValues(prompter: Prompter, kind: SecretKind, mode: 'create' | 'edit'): Promise<Record<string, string>> {
  const spec = KIND_FIELDS[kind];
  const values: Record<string, string> = {};
  for (const field of [...spec.required, ...spec.optional]) {
    const hidden = !spec.plain.includes(field);
    const multiline = spec.multiline.includes(field);
    const required = mode === 'create' && spec.required.includes(field);
    const notes = [
      required ? undefined : mode === 'edit' ? 'empty keeps the stored value' : 'optional',
      multiline ? "paste it, then a line with a single '.'" : undefined,
      hidden ? 'hidden' : undefined,
    ].filter(Boolean);
    const question = `${field}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}: `;
    let value = '';
    for (let attempt = 1; ; attempt += 1) {
      value = multiline ? await prompter.block(question, { hidden }) : await prompter.line(question, { hidden });
      const problem = value === '' ? (required ? `field '${field}' is required` : undefined) : fieldProblem(kind, field, value);
      if (problem === undefined) break;
      if (attempt === ATTEMPTS) throw new AhError({ code: 'VAULT_INVALID_SECRET', message: problem, operation: 'secrets.prompt' });
      prompter.note(problem);
    }
    // Key files end with a newline and some parsers insist on it.
    if (value !== '') values[field] = multiline ? `${value}\n` : value;
  }
  return values;
}
