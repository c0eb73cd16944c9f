/** Error output for people (text) and machines (--json diagnostic on stderr). */
import { toDiagnostic } from '../../errors.js';
import { err, paint, type Style } from './render.js';

export function printError(error: unknown, options: { json: boolean; style: Style; helpCommand?: string; domain?: string }): void {
  const d = toDiagnostic(error, options.domain ? { domain: options.domain } : undefined);
  if (options.json) {
    const { domain, operation, code, message, cause, exit_code_hint } = d;
    err(JSON.stringify({ domain, operation, code, message, cause, exit_code_hint }, null, 2));
    return;
  }
  const lines = [`${paint.red(options.style, 'ah:')} ${d.message}`];
  if (d.cause && d.cause !== d.message) lines.push(`  ${d.cause}`);
  const hint = d.hint ?? '';
  if (hint.startsWith('Did you mean')) lines.push('', hint);
  lines.push('', `Run '${options.helpCommand ?? 'ah'} --help' for more information.`);
  if (hint && !hint.startsWith('Did you mean')) lines.push(`Hint: ${hint}`);
  lines.push(paint.dim(options.style, `[${d.code}]`));
  err(lines.join('\n'));
}
