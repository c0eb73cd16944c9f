/** Global options, recognised anywhere before `--` (and before a run-style child command). */
import { AhError } from '../../errors.js';

export interface Globals {
  cwd?: string;
  limit?: number;
  json: boolean;
  quiet: boolean;
  help: boolean;
  version: boolean;
}

export function emptyGlobals(): Globals {
  return { json: false, quiet: false, help: false, version: false };
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new AhError({
      code: 'INVALID_RANGE',
      message: '--limit must be >= 1',
      cause: `got ${raw === undefined ? 'nothing' : `'${raw}'`}`,
      hint: 'Pass a whole number such as --limit 50.',
    });
  }
  return Number(raw);
}

/**
 * Tries to consume a global option at args[i]. Returns how many tokens it used (0 when the token
 * is not a global option).
 */
export function takeGlobal(args: readonly string[], i: number, globals: Globals): number {
  const token = args[i] as string;
  const [name, inline] =
    token.startsWith('--') && token.includes('=')
      ? [token.slice(0, token.indexOf('=')), token.slice(token.indexOf('=') + 1)]
      : [token, undefined];
  switch (name) {
    case '--json':
      globals.json = true;
      return 1;
    case '--quiet':
      globals.quiet = true;
      return 1;
    case '-h':
    case '--help':
      globals.help = true;
      return 1;
    case '-V':
    case '--version':
      globals.version = true;
      return 1;
    case '--limit':
      globals.limit = parseLimit(inline ?? args[i + 1]);
      return inline === undefined ? 2 : 1;
    case '--cwd': {
      const value = inline ?? args[i + 1];
      if (value === undefined || value === '') {
        throw new AhError({ code: 'INVALID_ARGUMENT', message: '--cwd needs a directory', hint: 'Pass --cwd PATH.' });
      }
      globals.cwd = value;
      return inline === undefined ? 2 : 1;
    }
    default:
      return 0;
  }
}
