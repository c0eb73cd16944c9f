/** Turns the search inputs into a ScanSpec (plain data a worker can take), validating the regex. */
import { AhError } from '../../errors.js';
import type { ScanSpec } from './scan.js';

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

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

export interface SpecOptions {
  regex: boolean;
  ignoreCase: boolean;
  maxBytes: number;
  context: number;
  maxHits: number;
}

export function createSpec(pattern: string, options: SpecOptions): ScanSpec {
  const exactLiteral = !options.regex && !options.ignoreCase;
  const re = exactLiteral ? null : compileRegex(options.regex ? pattern : escapeRegex(pattern), options.ignoreCase);
  return {
    literal: exactLiteral ? pattern : null,
    source: re?.source ?? '',
    flags: re?.flags ?? '',
    maxBytes: options.maxBytes,
    context: options.context,
    maxHits: options.maxHits,
  };
}
