import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../catalog/descriptor.js';
import { tempDir } from '../../../../test/helpers/tmp.js';
import { gitCredentialFill } from './credential-fill.js';
import { isLoopbackHost, resolveToken, type TokenPolicy } from './token.js';

const policy: TokenPolicy = {
  domain: 'github',
  envNames: ['GITHUB_TOKEN', 'GH_TOKEN'],
  trustedHosts: ['api.github.com', 'github.com'],
  credentialHost: 'github.com',
  insecureCode: 'GITHUB_INSECURE_TOKEN_TARGET',
};

function ctx(env: Record<string, string | undefined>): CommandContext {
  return { env, signal: new AbortController().signal } as unknown as CommandContext;
}

const none = { slot: undefined, cli: undefined, useGitCredential: false };

describe('resolveToken', () => {
  it('prefers the slot, then --token, then the variables in order', async () => {
    const url = new URL('https://api.github.com');
    const env = { GITHUB_TOKEN: 'e1', GH_TOKEN: 'e2' };
    expect(await resolveToken(ctx(env), { ...none, slot: 's', cli: 'c', apiUrl: url }, policy)).toEqual({
      token: 's',
      source: 'credentials',
    });
    expect(await resolveToken(ctx(env), { ...none, cli: 'c', apiUrl: url }, policy)).toEqual({ token: 'c', source: 'cli' });
    expect(await resolveToken(ctx(env), { ...none, apiUrl: url }, policy)).toMatchObject({ token: 'e1', variable: 'GITHUB_TOKEN' });
    expect(await resolveToken(ctx({ GH_TOKEN: 'e2' }), { ...none, apiUrl: url }, policy)).toMatchObject({
      token: 'e2',
      variable: 'GH_TOKEN',
    });
  });

  it('binds ambient tokens to trusted hosts and loopback; explicit ones go where they are sent', async () => {
    const foreign = new URL('https://ghe.example.org/api/v3');
    expect(await resolveToken(ctx({ GITHUB_TOKEN: 'e1' }), { ...none, apiUrl: foreign }, policy)).toEqual({ token: null, source: 'none' });
    expect(await resolveToken(ctx({ GITHUB_TOKEN: 'e1' }), { ...none, cli: 'c', apiUrl: foreign }, policy)).toMatchObject({ token: 'c' });
    expect(await resolveToken(ctx({ GITHUB_TOKEN: 'e1' }), { ...none, apiUrl: new URL('http://127.0.0.1:9/') }, policy)).toMatchObject({
      token: 'e1',
    });
  });

  it('never sends a token over cleartext to a non-loopback host', async () => {
    const cleartext = new URL('http://ghe.example.org/api/v3');
    await expect(resolveToken(ctx({}), { ...none, slot: 's', apiUrl: cleartext }, policy)).rejects.toMatchObject({
      code: 'GITHUB_INSECURE_TOKEN_TARGET',
    });
    // Without any token there is nothing to protect.
    expect(await resolveToken(ctx({}), { ...none, apiUrl: cleartext }, policy)).toEqual({ token: null, source: 'none' });
  });

  it('knows loopback hosts', () => {
    expect(['localhost', '127.0.0.1', '127.4.5.6', '[::1]', '::1'].every(isLoopbackHost)).toBe(true);
    expect(['10.0.0.1', 'localhost.evil', '128.0.0.1'].some(isLoopbackHost)).toBe(false);
  });
});

describe('gitCredentialFill', () => {
  it("asks the user's helpers, outside any repository, and reaps the helper", async () => {
    const home = tempDir();
    writeFileSync(
      join(home, '.gitconfig'),
      '[credential]\n\thelper = "!f() { cat >/dev/null; echo username=u; echo password=from-helper; }; f"\n',
    );
    const env = { PATH: process.env.PATH, HOME: home };
    expect(await gitCredentialFill('github.com', env, new AbortController().signal)).toBe('from-helper');
    // A host name that could smuggle protocol lines is refused without running git.
    expect(await gitCredentialFill('github.com\npassword=x', env, new AbortController().signal)).toBeNull();
    // No helper configured: nothing, and no prompt (GIT_TERMINAL_PROMPT=0).
    expect(await gitCredentialFill('github.com', { PATH: process.env.PATH, HOME: tempDir() }, new AbortController().signal)).toBeNull();
  });
});
