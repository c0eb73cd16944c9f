import { AhError } from '../../../errors.js';

/** CONFIRMATION_REQUIRED unless the caller passed yes: true. */
export function requireConfirmation(yes: boolean, operation: string, what: string): void {
  if (yes) return;
  throw new AhError({
    code: 'CONFIRMATION_REQUIRED',
    message: `${what} needs explicit confirmation`,
    cause: 'yes was not true',
    hint: 'Pass yes: true (CLI --yes) once you are sure the statement may change the database.',
    domain: 'postgres',
    operation,
    exitCodeHint: 2,
  });
}
