/** Pieces every forge command shares, whichever forge: effects, the HTTP cwd rule, token inputs, text inputs. */
import type { CommandContext } from '../../../catalog/descriptor.js';
import type { Effects } from '../../../catalog/effects.js';
import { cliOnly, Type } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';

export const TOKEN_INPUTS = {
  timeout_secs: Type.Integer({ default: 60, minimum: 1, maximum: 600, description: 'Timeout of each API request' }),
  token: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 4096,
      description: 'Token (CLI only)',
      ...cliOnly('Over MCP pass the record id of a token secret as credentials.token.'),
    }),
  ),
  use_git_credential: Type.Boolean({ default: true, description: 'Fall back to git credential fill for a token' }),
};

/**
 * Over HTTP MCP a forge call needs no cwd when it names its repository/project (`key`) and reads
 * no relative file.
 */
export function statelessWhenNamed(key: string, fileFields: readonly string[]): (input: Record<string, unknown>) => boolean {
  return (input) =>
    typeof input[key] === 'string' && fileFields.every((f) => typeof input[f] !== 'string' || (input[f] as string).startsWith('/'));
}

export function readEffects(forge: string): Effects {
  return {
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: true,
    effects: ['network_read', 'external_read'],
    risk: 'medium',
    impact: `Reads from the ${forge} API with the resolved token; changes nothing.`,
    reversibility: 'yes',
  };
}

export function writeEffects(impact: string, idempotent = false): Effects {
  return {
    readOnly: false,
    destructive: false,
    idempotent,
    openWorld: true,
    effects: ['network_write', 'external_write'],
    risk: 'high',
    impact,
    reversibility: 'unknown',
  };
}

/** A UTF-8 text input given inline or as a file (relative to the call's cwd), never both. */
export async function textInput(
  ctx: CommandContext,
  inline: string | undefined,
  file: string | undefined,
  names: [string, string],
  domain: string,
): Promise<string | undefined> {
  if (inline !== undefined && file !== undefined) {
    throw new AhError({
      code: 'INVALID_ARGUMENT',
      message: `pass ${names[0]} or ${names[1]}, not both`,
      domain,
      operation: `${domain}.input`,
    });
  }
  if (file === undefined) return inline;
  const { readTextFile } = await import('./files.js');
  return readTextFile(ctx, file, domain);
}
