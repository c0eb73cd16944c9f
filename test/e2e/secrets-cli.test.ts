/**
 * `ah secrets …` through the built CLI: the vault lifecycle, the non-TTY refusal, prompts on a real
 * pseudo-terminal, `ah.secrets.list` over MCP, the OS keyring inside a throwaway kernel session
 * keyring, and a planted value that must never surface in output, logs or the vault's bytes.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keySourceFromHex } from '../../src/secrets/keys.js';
import { createVault } from '../../src/secrets/vault.js';
import { type AhRun, AH_BIN, isolatedEnv, runAh } from '../helpers/cli.js';
import { connectStdio } from '../helpers/mcp.js';
import { runOnPty } from '../helpers/pty.js';
import { KEYRING_SESSION, SCRIPT_PTY, unavailable } from '../helpers/requires.js';

function setup() {
  const key = randomBytes(32).toString('hex');
  const ah = isolatedEnv({ AH_VAULT_MASTER_KEY: key });
  const vault = createVault({ configDir: ah.configDir, key: keySourceFromHex(key) });
  const runs: AhRun[] = [];
  const run = async (args: string[], extra: { input?: string; env?: NodeJS.ProcessEnv } = {}) => {
    const r = await runAh(args, { env: { ...ah.env, ...extra.env }, ...(extra.input !== undefined ? { input: extra.input } : {}) });
    runs.push(r);
    return r;
  };
  const logs = () => {
    const dir = join(ah.configDir, 'logs');
    return existsSync(dir)
      ? readdirSync(dir)
          .map((n) => readFileSync(join(dir, n), 'utf8'))
          .join('\n')
      : '';
  };
  /** Every surface a value could leak to. */
  const surfaces = (): Record<string, string | Buffer> => ({
    ...Object.fromEntries(
      runs.flatMap((r, i) => [
        [`stdout ${i}`, r.stdout],
        [`stderr ${i}`, r.stderr],
      ]),
    ),
    logs: logs(),
    ...(existsSync(vault.path) ? { 'vault bytes': readFileSync(vault.path) } : {}),
  });
  return { key, ah, vault, run, logs, surfaces };
}

function expectAbsent(surfaces: Record<string, string | Buffer>, needle: string): void {
  for (const [where, text] of Object.entries(surfaces)) {
    expect(Buffer.isBuffer(text) ? text.includes(Buffer.from(needle)) : text.includes(needle), `planted value in ${where}`).toBe(false);
  }
}

describe('ah secrets', () => {
  it('lists all five commands in its help', async () => {
    const r = await runAh(['secrets', '--help']);
    expect(r.code, r.stderr).toBe(0);
    for (const verb of ['init', 'list', 'add', 'edit', 'remove']) expect(r.stdout).toMatch(new RegExp(`^  ${verb} `, 'm'));
  });

  it('runs the vault lifecycle and never shows a value', async () => {
    const { vault, run, surfaces, key } = setup();
    const planted = `planted-${randomBytes(12).toString('hex')}`;

    const before = await run(['--json', 'secrets', 'list']);
    expect(before.code).toBe(1);
    expect(before.errorJson()).toMatchObject({ code: 'VAULT_NOT_INITIALIZED' });

    const init = await run(['--json', 'secrets', 'init']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.json()).toEqual({ path: vault.path, created: true });
    expect((await run(['--json', 'secrets', 'init'])).json()).toMatchObject({ created: false });
    expect((await run(['--json', 'secrets', 'list'])).json()).toEqual({ secrets: [] });

    // Values cannot come through a pipe: the refusal names --open.
    const piped = await run(['--json', 'secrets', 'add', 'gh', '--kind', 'github-token'], { input: `${planted}\n` });
    expect(piped.code).toBe(1);
    expect(piped.errorJson()).toMatchObject({ code: 'VAULT_INTERACTIVE_REQUIRED' });
    const noStdin = await run(['secrets', 'edit', 'gh']);
    expect(noStdin.stderr).toContain('VAULT_INTERACTIVE_REQUIRED');
    expect(noStdin.stderr).toContain('--open');

    await vault.add({ id: 'gh', kind: 'github-token', label: 'GitHub work', values: { token: planted } });
    await vault.add({ id: 'db', kind: 'postgres', description: 'billing', values: { host: 'h', user: 'u', password: planted } });

    const text = await run(['secrets', 'list']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^ID +KIND +LABEL +DESCRIPTION$/m);
    expect(text.stdout).toMatch(/^gh +github-token +GitHub work$/m);
    expect((await run(['--json', 'secrets', 'list', '--kind', 'postgres'])).json()).toEqual({
      secrets: [{ id: 'db', kind: 'postgres', label: 'db', description: 'billing' }],
    });
    const badKind = await run(['--json', 'secrets', 'list', '--kind', 'aws']);
    expect(badKind.code).toBe(1);

    const exists = await run(['--json', 'secrets', 'add', 'gh', '--kind', 'github-token', '--open'], {
      env: { AH_MCP_HTTP_URL: 'https://127.0.0.1:1' },
    });
    expect(exists.errorJson()).toMatchObject({ code: 'VAULT_SETUP_URL_INVALID' });

    const removed = await run(['--json', 'secrets', 'remove', 'gh']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.json()).toEqual({ id: 'gh', kind: 'github-token', label: 'GitHub work', description: null });
    const again = await run(['--json', 'secrets', 'remove', 'gh']);
    expect(again.errorJson()).toMatchObject({ code: 'VAULT_SECRET_NOT_FOUND' });
    expect((await run(['secrets', 'remove', 'db'])).stdout).toBe("removed secret 'db' (postgres)\n");

    expectAbsent(surfaces(), planted);
    expectAbsent(surfaces(), key);
  });

  it('fails with a malformed key and names both key sources in the hint', async () => {
    const { run } = setup();
    const r = await run(['secrets', 'init'], { env: { AH_VAULT_MASTER_KEY: `+f${'0'.repeat(62)}` } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('VAULT_KEY_UNAVAILABLE');
    expect(r.stderr).toMatch(/Hint: .*AH_VAULT_MASTER_KEY.*credential store/);
  });

  it('keeps the master key from child processes', async () => {
    const { run, key, logs } = setup();
    const r = await run([
      '--json',
      'run',
      'check',
      '--',
      process.execPath,
      '-e',
      'console.log(process.env.AH_VAULT_MASTER_KEY ?? "absent")',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('absent');
    expect(r.stdout).not.toContain(key);
    expect(logs()).not.toContain(key);
  });

  it('asks --open for a setup link and reports a missing server clearly', async () => {
    const { run } = setup();
    const port = await freePort();
    const r = await run(['--json', 'secrets', 'edit', 'gh', '--open'], { env: { AH_MCP_HTTP_URL: `http://127.0.0.1:${port}` } });
    expect(r.code).toBe(1);
    expect(r.errorJson()).toMatchObject({ code: 'MCP_SERVER_UNAVAILABLE' });
    // In text mode the first line names the URL tried and the command that starts the server.
    const text = await run(['secrets', 'edit', 'gh', '--open'], { env: { AH_MCP_HTTP_URL: `http://127.0.0.1:${port}` } });
    const first = text.stderr.split('\n')[0] ?? '';
    expect(first).toContain(`http://127.0.0.1:${port}/secrets/setup`);
    expect(first).toContain(`ah mcp serve --transport http --port ${port}`);
    expect(text.stderr).not.toMatch(/TypeError|fetch failed/);
  });

  it('explains AH_VAULT_MASTER_KEY once when no keyring is reachable, HTTP server included', async () => {
    // Outside a `keyctl session` (see the keyring suite below) the kernel keyring refuses access on
    // Linux, so this run has neither key source.
    const { run } = setup();
    const r = await run(['secrets', 'init'], { env: { AH_VAULT_MASTER_KEY: undefined } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('VAULT_KEY_UNAVAILABLE');
    expect(r.stderr.match(/64 hex characters/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/same key.*HTTP server/);
  });

  it('publishes only secrets.list over MCP, with metadata only', async () => {
    const { ah, vault } = setup();
    const planted = `planted-${randomBytes(12).toString('hex')}`;
    await vault.init();
    await vault.add({ id: 'gl', kind: 'gitlab-token', values: { token: planted } });
    const server = await connectStdio([], { env: ah.env });
    try {
      const tools = (await server.client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('ah.secrets.list');
      expect(tools.filter((t) => t.startsWith('ah.secrets.'))).toEqual(['ah.secrets.list']);
      const result = await server.client.callTool({ name: 'ah.secrets.list', arguments: { kind: 'gitlab-token' } });
      expect(result.structuredContent).toEqual({ secrets: [{ id: 'gl', kind: 'gitlab-token', label: 'gl', description: null }] });
      expect(JSON.stringify(result)).not.toContain(planted);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(unavailable('ah secrets add/edit on a terminal', SCRIPT_PTY))('ah secrets add/edit on a terminal', () => {
  it('takes values at hidden prompts and never echoes them', async () => {
    const { ah, vault, logs } = setup();
    const token = `planted-${randomBytes(12).toString('hex')}`;
    const password = `planted-${randomBytes(12).toString('hex')}`;
    await vault.init();

    const add = await runOnPty(['secrets', 'add', 'gh', '--kind', 'github-token', '--label', 'Work'], {
      env: ah.env,
      steps: [{ waitFor: 'token (hidden): ', send: `${token}\r` }],
    });
    expect(add.code, add.transcript).toBe(0);
    expect(add.transcript).toContain("added secret 'gh' (github-token)");
    expect((await vault.read('gh')).values).toEqual({ token });

    const web = await runOnPty(['--json', 'secrets', 'add', 'web', '--kind', 'http-basic'], {
      env: ah.env,
      steps: [
        { waitFor: 'username: ', send: 'alice\r' },
        { waitFor: 'password (hidden): ', send: `${password}\r` },
      ],
    });
    expect(web.code, web.transcript).toBe(0);
    expect(web.transcript).toContain('alice'); // a plain field is echoed
    expect(web.transcript).toContain('"kind": "http-basic"');

    // Empty answers keep stored values; a new answer replaces one.
    const edit = await runOnPty(['secrets', 'edit', 'web', '--description', 'intranet'], {
      env: ah.env,
      steps: [
        { waitFor: 'username (empty keeps the stored value): ', send: '\r' },
        { waitFor: 'password (empty keeps the stored value; hidden): ', send: `${password}-2\r` },
      ],
    });
    expect(edit.code, edit.transcript).toBe(0);
    expect(await vault.read('web')).toMatchObject({ description: 'intranet', values: { username: 'alice', password: `${password}-2` } });

    const key = ['-----BEGIN OPENSSH PRIVATE KEY-----', `${token}-line`, '-----END OPENSSH PRIVATE KEY-----'];
    const ssh = await runOnPty(['secrets', 'add', 'deploy', '--kind', 'ssh-key'], {
      env: ah.env,
      steps: [
        { waitFor: 'private_key (', send: `${key.join('\r')}\r.\r` },
        { waitFor: 'passphrase (', send: '\r' },
      ],
    });
    expect(ssh.code, ssh.transcript).toBe(0);
    expect((await vault.read('deploy')).values).toEqual({ private_key: `${key.join('\n')}\n` });

    for (const [where, text] of Object.entries({
      add: add.transcript,
      web: web.transcript,
      edit: edit.transcript,
      ssh: ssh.transcript,
      logs: logs(),
    })) {
      expect(text.includes(token), `token in ${where}`).toBe(false);
      expect(text.includes(password), `password in ${where}`).toBe(false);
    }
    expect(readFileSync(vault.path).includes(Buffer.from(password))).toBe(false);
  }, 60_000);

  it('Ctrl+C at a prompt saves nothing', async () => {
    const { ah, vault } = setup();
    await vault.init();
    const r = await runOnPty(['secrets', 'add', 'gh', '--kind', 'github-token'], {
      env: ah.env,
      steps: [{ waitFor: 'token (hidden): ', send: 'abc\u0003' }],
    });
    expect(r.code).toBe(1);
    expect(r.transcript).toContain('EXECUTION_CANCELLED');
    expect(await vault.list()).toEqual([]);
  });
});

describe.skipIf(unavailable('the OS keyring as key source', KEYRING_SESSION))('the OS keyring as key source', () => {
  it('creates the key on init and finds it later (inside a throwaway session keyring)', () => {
    const { ah } = setup();
    const env: NodeJS.ProcessEnv = { ...ah.env };
    delete env.AH_VAULT_MASTER_KEY;
    // No Secret Service: the keyring library falls back to the kernel keyring of this session only.
    env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/bus';
    const keyring = join(process.cwd(), 'node_modules', '@napi-rs', 'keyring', 'index.js');
    const cleanup = `import('${keyring}').then(async ({ AsyncEntry }) => console.log('deleted=' + (await new AsyncEntry('aihelper', 'vault-v1').deleteCredential())))`;
    const ahCmd = `'${process.execPath}' '${AH_BIN}'`;
    const script = [
      `${ahCmd} --json secrets init`,
      `${ahCmd} --json secrets list`,
      `'${process.execPath}' -e "${cleanup}"`,
      `${ahCmd} --json secrets list || true`,
    ].join(' && ');
    const r = spawnSync('keyctl', ['session', '-', 'sh', '-c', script], { env, encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(r.stdout).toContain('"created": true');
    expect(r.stdout).toContain('"secrets": []');
    expect(lines).toContain('deleted=true');
    // Without the stored key the vault cannot be opened any more.
    expect(r.stderr).toContain('VAULT_KEY_UNAVAILABLE');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
