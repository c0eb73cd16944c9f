/**
 * Runs the built `ah` on a real pseudo-terminal via util-linux `script`, answering prompts as they
 * appear (answers sent before a prompt would be echoed by the still-cooked terminal, which is not
 * what a person at the keyboard sees).
 */
import { spawn } from 'node:child_process';
import { AH_BIN } from './cli.js';

function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

export interface PtyStep {
  /** Text that must appear in the transcript (after the previous step's) before `send`. */
  waitFor: string;
  /** Keystrokes; use `\r` for Enter. */
  send: string;
}

export async function runOnPty(
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; steps: PtyStep[]; timeoutMs?: number; columns?: number },
): Promise<{ code: number | null; transcript: string }> {
  const ah = [process.execPath, AH_BIN, ...args].map(shellQuote).join(' ');
  // script's terminal has no size of its own (0 columns): full-screen prompts need one to lay out.
  const command = options.columns === undefined ? ah : `stty cols ${options.columns} rows 50; exec ${ah}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: options.env,
    cwd: options.cwd ?? process.cwd(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let transcript = '';
  let seen = 0;
  const steps = [...options.steps];
  const advance = () => {
    const step = steps[0];
    if (!step) return;
    const at = transcript.indexOf(step.waitFor, seen);
    if (at === -1) return;
    seen = at + step.waitFor.length;
    steps.shift();
    child.stdin.write(step.send);
    advance();
  };
  child.stdout.on('data', (chunk: Buffer) => {
    transcript += chunk.toString('utf8');
    advance();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    transcript += chunk.toString('utf8');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, transcript };
}
