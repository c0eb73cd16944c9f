/**
 * Asks git's own credential helpers for a forge token (`git credential fill`), the way `git push`
 * would. It runs outside any repository (the user's home), so a cloned repository's config cannot
 * name the helper that runs; never prompts; bounded by a timeout; the child is always reaped.
 */
import { runProcess } from '../../../platform/exec.js';

const TIMEOUT_MS = 10_000;

export async function gitCredentialFill(
  host: string,
  env: Readonly<Record<string, string | undefined>>,
  signal: AbortSignal,
): Promise<string | null> {
  if (!/^[a-z0-9.-]+(?::\d+)?$/i.test(host)) return null;
  const result = await runProcess('git', ['credential', 'fill'], {
    cwd: env.HOME ?? '/',
    env: { ...env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '', GCM_INTERACTIVE: 'never' },
    signal,
    timeoutMs: TIMEOUT_MS,
    maxBytes: 64 * 1024,
    input: `protocol=https\nhost=${host}\n\n`,
  });
  if (result.kind !== 'exited' || result.code !== 0 || result.timedOut || result.cancelled) return null;
  for (const line of result.stdout.toString('utf8').split('\n')) {
    if (line.startsWith('password=')) {
      const value = line.slice('password='.length).trim();
      return value === '' ? null : value;
    }
  }
  return null;
}
