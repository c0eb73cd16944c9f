import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createPrompter } from './prompt.js';

function harness(terminal: boolean) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (c: Buffer) => {
    shown += c.toString('utf8');
  });
  const prompter = createPrompter({ input, output, terminal });
  return { input, prompter, shown: () => shown };
}

describe('prompts from plain streams', () => {
  it('reads lines in order, including ones that arrived early', async () => {
    const { input, prompter, shown } = harness(false);
    input.write('first\nsecond\n');
    expect(await prompter.line('a: ')).toBe('first');
    expect(await prompter.line('b: ', { hidden: true })).toBe('second');
    expect(shown()).toContain('a: ');
    expect(shown()).toContain('b: ');
    prompter.close();
  });

  it("reads a block up to a line holding only '.'", async () => {
    const { input, prompter } = harness(false);
    const pending = prompter.block('key: ', { hidden: true });
    input.write('-----BEGIN KEY-----\n');
    input.write('abc . def\n');
    input.write('-----END KEY-----\n.\nafter\n');
    expect(await pending).toBe('-----BEGIN KEY-----\nabc . def\n-----END KEY-----');
    expect(await prompter.line('next: ')).toBe('after');
    prompter.close();
  });

  it("gives an empty block for a lone '.'", async () => {
    const { input, prompter } = harness(false);
    input.write('.\n');
    expect(await prompter.block('key: ')).toBe('');
    prompter.close();
  });

  it('fails with EXECUTION_CANCELLED when input ends before an answer', async () => {
    const { input, prompter } = harness(false);
    const pending = prompter.line('a: ');
    input.end();
    await expect(pending).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
    await expect(prompter.line('b: ')).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED' });
  });
});

describe('prompts in terminal mode (readline echoes keystrokes itself)', () => {
  it('does not echo hidden answers but does echo plain ones', async () => {
    const { input, prompter, shown } = harness(true);
    const hidden = prompter.line('password: ', { hidden: true });
    input.write('planted-secret\r');
    expect(await hidden).toBe('planted-secret');
    const plain = prompter.line('host: ');
    input.write('db.example\r');
    expect(await plain).toBe('db.example');
    expect(shown()).toContain('password: ');
    expect(shown()).not.toContain('planted-secret');
    expect(shown()).toContain('db.example');
    prompter.close();
  });

  it('keeps a hidden block off the screen', async () => {
    const { input, prompter, shown } = harness(true);
    const pending = prompter.block('private_key: ', { hidden: true });
    input.write('line-one-planted\rline-two-planted\r.\r');
    expect(await pending).toBe('line-one-planted\nline-two-planted');
    expect(shown()).not.toContain('planted');
    prompter.close();
  });

  it('turns Ctrl+C into EXECUTION_CANCELLED', async () => {
    const { input, prompter } = harness(true);
    const pending = prompter.line('token: ', { hidden: true });
    input.write('par');
    input.write('\u0003');
    await expect(pending).rejects.toMatchObject({ code: 'EXECUTION_CANCELLED', message: expect.stringContaining('interrupted') });
  });
});
