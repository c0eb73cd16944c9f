import { describe, expect, it } from 'vitest';
import { enterValues } from './entry.js';
import type { Prompter } from './prompt.js';

/** Answers from a script and records what was asked (question, hidden, block). */
function scripted(answers: string[]) {
  const asked: Array<{ question: string; hidden: boolean; block: boolean }> = [];
  const notes: string[] = [];
  const take = (question: string, hidden: boolean, block: boolean) => {
    asked.push({ question, hidden, block });
    const next = answers.shift();
    if (next === undefined) throw new Error(`no scripted answer for ${question}`);
    return Promise.resolve(next);
  };
  const prompter: Prompter = {
    line: (q, o = {}) => take(q, o.hidden === true, false),
    block: (q, o = {}) => take(q, o.hidden === true, true),
    note: (text) => notes.push(text),
    close: () => undefined,
  };
  return { prompter, asked, notes };
}

describe('enterValues', () => {
  it('asks every postgres field, hiding only the password, and skips empty optional ones', async () => {
    const { prompter, asked } = scripted(['db.local', 'app', 'pw', '5432', '', 'require']);
    expect(await enterValues(prompter, 'postgres', 'create')).toEqual({
      host: 'db.local',
      user: 'app',
      password: 'pw',
      port: '5432',
      sslmode: 'require',
    });
    expect(asked.map((a) => [a.question.split(' ')[0]?.replace(':', ''), a.hidden])).toEqual([
      ['host', false],
      ['user', false],
      ['password', true],
      ['port', false],
      ['database', false],
      ['sslmode', false],
    ]);
    expect(asked[4]?.question).toContain('optional');
  });

  it('asks a required field again when left empty, then gives up', async () => {
    const again = scripted(['', 'tok']);
    expect(await enterValues(again.prompter, 'github-token', 'create')).toEqual({ token: 'tok' });
    expect(again.asked).toHaveLength(2);
    const never = scripted(['', '', '']);
    await expect(enterValues(never.prompter, 'gitlab-token', 'create')).rejects.toMatchObject({ code: 'VAULT_INVALID_SECRET' });
  });

  it('asks a malformed port or sslmode again, saying why without the value', async () => {
    const { prompter, notes } = scripted(['h', 'u', 'p', '70000', '5433', '', 'sometimes', 'prefer']);
    expect(await enterValues(prompter, 'postgres', 'create')).toEqual({
      host: 'h',
      user: 'u',
      password: 'p',
      port: '5433',
      sslmode: 'prefer',
    });
    expect(notes).toEqual([
      "field 'port' must be a whole number from 1 to 65535",
      expect.stringContaining("field 'sslmode' must be one of"),
    ]);
  });

  it('reads an ssh private key as a hidden block and ends it with a newline', async () => {
    const { prompter, asked } = scripted(['-----BEGIN-----\nabc\n-----END-----', '']);
    expect(await enterValues(prompter, 'ssh-key', 'create')).toEqual({ private_key: '-----BEGIN-----\nabc\n-----END-----\n' });
    expect(asked[0]).toMatchObject({ hidden: true, block: true });
    expect(asked[0]?.question).toContain("'.'");
  });

  it('in edit mode every field is optional and empty means keep', async () => {
    const { prompter, asked } = scripted(['', 'new-password']);
    expect(await enterValues(prompter, 'http-basic', 'edit')).toEqual({ password: 'new-password' });
    expect(asked.every((a) => a.question.includes('empty keeps the stored value'))).toBe(true);
  });
});
