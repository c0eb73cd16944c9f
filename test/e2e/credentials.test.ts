/**
 * Credential slots end to end: a test-only plugin command declares slots; the CLI (`--credential`)
 * and MCP (`credentials`) pass record ids; the handler gets values from the real encrypted vault;
 * no value ever reaches stdout, stderr, tool lists, results, errors or the logs.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVault } from '../../src/secrets/vault.js';
import { keySourceFromHex } from '../../src/secrets/keys.js';
import { type AhEnv, isolatedEnv, runAh } from '../helpers/cli.js';
import { connectStdio, type StdioServer } from '../helpers/mcp.js';
import { installTestPlugin } from '../helpers/plugins.js';

const KEY = randomBytes(32).toString('hex');
const PLANTED = `ghp_planted_${randomBytes(12).toString('hex')}`;
const PASSWORD = `pw_planted_${randomBytes(12).toString('hex')}`;

function sha(values: Record<string, string>): string {
  return createHash('sha256').update(JSON.stringify(values)).digest('hex');
}

let ah: AhEnv;
let server: StdioServer;
const transcript: string[] = [];

beforeAll(async () => {
  ah = isolatedEnv({ AH_VAULT_MASTER_KEY: KEY }, { suite: true });
  installTestPlugin(ah.configDir);
  const vault = createVault({ configDir: ah.configDir, key: keySourceFromHex(KEY) });
  await vault.init();
  await vault.add({ id: 'gh-main', kind: 'github-token', label: 'Main token', values: { token: PLANTED } });
  await vault.add({ id: 'web', kind: 'http-basic', values: { username: 'alice', password: PASSWORD } });
  server = await connectStdio([], { env: ah.env });
}, 30_000);

afterAll(async () => {
  await server?.close();
});

function logsText(): string {
  const dir = join(ah.configDir, 'logs');
  try {
    return readdirSync(dir)
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .join('\n');
  } catch {
    return '';
  }
}

describe('CLI --credential', () => {
  it('resolves ids to values for the handler only', async () => {
    const run = await runAh(['testkit', 'vault-probe', '--credential', 'token=gh-main', '--credential', 'basic=web', '--json'], {
      env: ah.env,
    });
    expect(run.code, run.stderr).toBe(0);
    transcript.push(run.stdout, run.stderr);
    expect(run.json()).toEqual({
      command: 'testkit.vault-probe',
      slots: [
        { slot: 'basic', id: 'web', kind: 'http-basic', values_sha256: sha({ username: 'alice', password: PASSWORD }) },
        { slot: 'token', id: 'gh-main', kind: 'github-token', values_sha256: sha({ token: PLANTED }) },
      ],
    });
  });

  it('reports missing, unknown and wrong-kind records with their codes and no ids', async () => {
    const cases: [string[], string][] = [
      [[], 'SECRET_REQUIRED'],
      [['--credential', 'token=nope-record'], 'SECRET_NOT_FOUND'],
      [['--credential', 'token=web'], 'SECRET_KIND_MISMATCH'],
      [['--credential', 'other=web'], 'INVALID_ARGUMENT'],
      [['--credential', 'token'], 'INVALID_ARGUMENT'],
    ];
    for (const [extra, code] of cases) {
      const run = await runAh(['testkit', 'vault-probe', ...extra, '--json'], { env: ah.env });
      transcript.push(run.stdout, run.stderr);
      expect(run.code, run.stderr).not.toBe(0);
      expect(run.errorJson<{ code: string }>().code).toBe(code);
      if (code.startsWith('SECRET_')) expect(run.stderr).not.toMatch(/nope-record|"web"/);
    }
  });

  it('documents the flag in the command help', async () => {
    const run = await runAh(['testkit', 'vault-probe', '--help'], { env: ah.env });
    expect(run.stdout).toContain('--credential token=ID');
    expect(run.stdout).toContain('github-token');
  });

  it('refuses --credential for commands without slots', async () => {
    const run = await runAh(['testkit', 'echo', 'hi', '--credential', 'token=gh-main', '--json'], { env: ah.env });
    expect(run.code).not.toBe(0);
    expect(run.errorJson<{ code: string }>().code).toBe('INVALID_ARGUMENT');
  });
});

describe('MCP credentials', () => {
  it('lists slots in the schema and description without any live record id', async () => {
    const { tools } = await server.client.listTools();
    const probe = tools.find((t) => t.name === 'ah.testkit.vault-probe');
    expect(probe?.inputSchema.properties?.credentials).toMatchObject({ type: 'object', additionalProperties: false });
    expect(probe?.inputSchema.required).toContain('credentials');
    expect(probe?.description).toContain('Credential slots:');
    expect(probe?.description).toContain('ah.secrets.list');
    const listed = JSON.stringify(tools);
    expect(listed).not.toContain('gh-main');
    expect(listed).not.toContain('Main token');
    transcript.push(listed);
    const echo = tools.find((t) => t.name === 'ah.testkit.echo');
    expect(echo?.inputSchema.properties?.credentials).toBeUndefined();
  });

  it('resolves credentials for a direct call and for a job', async () => {
    const result = await server.client.callTool({ name: 'ah.testkit.vault-probe', arguments: { credentials: { token: 'gh-main' } } });
    transcript.push(JSON.stringify(result));
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      command: 'testkit.vault-probe',
      slots: [{ slot: 'token', id: 'gh-main', kind: 'github-token', values_sha256: sha({ token: PLANTED }) }],
    });
    const started = await server.client.callTool({
      name: 'ah.job.start',
      arguments: { tool: 'ah.testkit.vault-probe', arguments: { credentials: { token: 'gh-main' } } },
    });
    const jobId = (started.structuredContent as { job_id: string }).job_id;
    let outcome: Record<string, unknown> = {};
    for (let i = 0; i < 100; i += 1) {
      const read = await server.client.callTool({ name: 'ah.job.result', arguments: { job_id: jobId } });
      outcome = read.structuredContent as Record<string, unknown>;
      if (outcome.ready === true) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    transcript.push(JSON.stringify(outcome));
    expect(JSON.stringify(outcome)).toContain(sha({ token: PLANTED }));
  });

  it('returns tool errors with vault codes whose causes do not echo ids', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'SECRET_REQUIRED'],
      [{ credentials: { token: 'missing-record-xyz' } }, 'SECRET_NOT_FOUND'],
      [{ credentials: { token: 'web' } }, 'SECRET_KIND_MISMATCH'],
      [{ credentials: { token: 'gh-main', extra: 'web' } }, 'INVALID_ARGUMENT'],
    ];
    for (const [args, code] of cases) {
      const result = await server.client.callTool({ name: 'ah.testkit.vault-probe', arguments: args });
      const text = JSON.stringify(result);
      transcript.push(text);
      expect(result.isError).toBe(true);
      expect((result._meta?.['dev.aihelper/diagnostic'] as { code?: string } | undefined)?.code).toBe(code);
      if (code.startsWith('SECRET_')) expect(text).not.toMatch(/missing-record-xyz|"web"/);
    }
  });

  it('lists metadata through ah.secrets.list, never values', async () => {
    const result = await server.client.callTool({ name: 'ah.secrets.list', arguments: { kind: 'github-token' } });
    transcript.push(JSON.stringify(result));
    expect(result.structuredContent).toEqual({
      secrets: [{ id: 'gh-main', kind: 'github-token', label: 'Main token', description: null }],
    });
  });

  it('leaks no planted value anywhere', () => {
    const everything = [...transcript, server.stderr(), logsText()].join('\n');
    expect(everything).not.toContain(PLANTED);
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain(KEY);
  });
});
