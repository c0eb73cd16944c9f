/** Reads and checks an assert spec file (YAML, or JSON for .json), bounded in size. */
import { extname } from 'node:path';
import { compile, describeErrors } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';
import { readInputFile } from './read-input-file.js';
import { type Spec, SpecSchema } from './spec-schema.js';

export const MAX_SPEC_BYTES = 1_048_576;

function invalid(path: string, message: string, cause?: string): AhError {
  return new AhError({
    code: 'INVALID_ARGUMENT',
    message: `spec ${path}: ${message}`,
    cause,
    hint: 'See the spec format in the README (version: 1, defaults, vars, cases).',
    domain: 'http',
    operation: 'http.assert',
  });
}

export async function loadSpec(cwd: string, path: string): Promise<Spec> {
  const text = (await readInputFile(cwd, path, 'spec_path', MAX_SPEC_BYTES)).toString('utf8');
  let data: unknown;
  if (extname(path).toLowerCase() === '.json') {
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw invalid(path, 'is not valid JSON', (error as Error).message);
    }
  } else {
    // The YAML parser is loaded only when a spec is read.
    const { parse } = await import('yaml');
    try {
      // Aliases are capped so a small file cannot expand into a huge document.
      data = parse(text, { maxAliasCount: 100, uniqueKeys: true });
    } catch (error) {
      throw invalid(path, 'is not valid YAML', (error as Error).message.split('\n')[0]);
    }
  }
  const validate = compile(SpecSchema);
  if (!validate(data)) throw invalid(path, describeErrors(validate.errors, 'spec'));
  return data as Spec;
}
