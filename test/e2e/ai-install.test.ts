/**
 * `ah ai install|uninstall|status` through the built CLI, in a private HOME and project per test,
 * with no agent CLI on PATH: the file registrars (Cursor, VS Code, OpenCode, Gemini project, the
 * Claude project fallback), rules files, idempotency, dry runs, refusals with their codes, and the
 * interactive flow on a real pseudo-terminal. The real agent CLIs are exercised by
 * test/e2e/ai-install-clients.test.ts.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AH_BIN, isolatedEnv, runAh } from '../helpers/cli.js';
import { startHttpServer } from '../helpers/http.js';
import { runOnPty } from '../helpers/pty.js';
import { tempDir } from '../helpers/tmp.js';

const BEGIN = '<!-- ah:begin (managed by `ah ai install`) -->';
const END = '<!-- ah:end -->';
const REPORT_KEYS = ['command', 'schema_version', 'target', 'scope', 'changed', 'dry_run', 'mcp', 'rules', 'managed_service', 'warnings'];

interface World {
  env: NodeJS.ProcessEnv;
  home: string;
  project: string;
  ah(args: string[]): ReturnType<typeof runAh>;
}

/** A private HOME and a git project; PATH holds node and the system tools only (no agent CLI). */
function world(extra: NodeJS.ProcessEnv = {}): World {
  const { env, home } = isolatedEnv({ PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, ...extra });
  const project = join(tempDir('ah-ai-proj-'), 'repo');
  mkdirSync(join(project, '.git'), { recursive: true });
  return { env, home, project, ah: (args) => runAh(args, { env, cwd: project }) };
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function read(path: string): string {
  return readFileSync(path, 'utf8');
}

/** Every file under the roots with its bytes, for "nothing changed" checks. */
function tree(...roots: string[]): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (root: string, dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(root, path);
      else files[`${root}:${relative(root, path)}`] = read(path);
    }
  };
  for (const root of roots) walk(root, root);
  return files;
}

async function json(w: World, args: string[]): Promise<Record<string, any>> {
  const r = await w.ah([...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return r.json<Record<string, any>>();
}

async function failure(w: World, args: string[]): Promise<Record<string, any>> {
  const r = await w.ah([...args, '--json']);
  expect(r.code, r.stdout).toBe(1);
  return r.errorJson<Record<string, any>>();
}

const PLANTED_CURSOR = `{
  // my servers
  "mcpServers": {
    "other": { "command": "other-server", "args": ["--flag",] }, // keep
  },
}
`;

describe('ah ai install: file targets', () => {
  test('cursor: schema v1 report, entry with absolute node + ah, alwaysApply rule; repeat is unchanged; uninstall restores the planted file', async () => {
    const w = world();
    const mcpPath = join(w.project, '.cursor', 'mcp.json');
    write(mcpPath, PLANTED_CURSOR);
    const first = await json(w, ['ai', 'install', 'cursor', '--yes']);
    expect(Object.keys(first)).toEqual(REPORT_KEYS);
    expect(first).toEqual({
      command: 'ai.install',
      schema_version: 1,
      target: 'cursor',
      scope: 'project',
      changed: true,
      dry_run: false,
      mcp: { action: 'installed', registrar: 'file', transport: 'stdio', url: null, path: mcpPath },
      rules: { action: 'installed', path: join(w.project, '.cursor', 'rules', 'ah.mdc') },
      managed_service: null,
      warnings: [],
    });
    const text = read(mcpPath);
    expect(text).toContain('// my servers');
    expect(text).toContain('"other": { "command": "other-server", "args": ["--flag",] }, // keep');
    const { parse } = await import('jsonc-parser');
    // Cursor's documented stdio shape: command + args; the script is this build's bin/ah.cjs.
    expect(parse(text).mcpServers.aihelper).toEqual({ command: process.execPath, args: [AH_BIN, 'mcp', 'serve'] });
    const rule = read(join(w.project, '.cursor', 'rules', 'ah.mdc'));
    expect(rule.startsWith('---\n')).toBe(true);
    expect(rule.split('---')[1]).toContain('alwaysApply: true');
    expect(rule).toContain(BEGIN);
    expect(rule).toContain('ah ai info --json');
    expect(rule.endsWith(`${END}\n`)).toBe(true);

    const before = tree(w.project, w.home);
    const mtime = statSync(mcpPath).mtimeMs;
    const again = await json(w, ['ai', 'install', 'cursor', '--yes']);
    expect(again).toMatchObject({ changed: false, mcp: { action: 'unchanged' }, rules: { action: 'unchanged' } });
    expect(tree(w.project, w.home)).toEqual(before);
    expect(statSync(mcpPath).mtimeMs).toBe(mtime);

    const status = await json(w, ['ai', 'status', 'cursor']);
    expect(status).toMatchObject({
      command: 'ai.status',
      target: 'cursor',
      scope: 'project',
      mcp: { action: 'installed', transport: 'stdio' },
    });
    expect(status.scopes).toEqual([
      { scope: 'project', mcp: first.mcp, rules: { action: 'installed', path: first.rules.path } },
      {
        scope: 'user',
        mcp: { action: 'not_present', registrar: 'file', transport: null, url: null, path: join(w.home, '.cursor', 'mcp.json') },
        rules: { action: 'unknown', path: null },
      },
    ]);

    const removed = await json(w, ['ai', 'uninstall', 'cursor']);
    expect(removed).toMatchObject({ command: 'ai.uninstall', changed: true, mcp: { action: 'removed' }, rules: { action: 'removed' } });
    expect(read(mcpPath)).toBe(PLANTED_CURSOR);
    expect(readdirSync(join(w.project, '.cursor', 'rules'))).toEqual([]);
    const twice = await json(w, ['ai', 'uninstall', 'cursor']);
    expect(twice).toMatchObject({ changed: false, mcp: { action: 'not_present' }, rules: { action: 'not_present' } });
  });

  test('copilot: .vscode/mcp.json (JSONC, key servers) keeps comments; instructions file; http entry; no user scope', async () => {
    const w = world();
    const path = join(w.project, '.vscode', 'mcp.json');
    const planted =
      '{\n  /* team servers */\n  "inputs": [],\n  "servers": {\n    "db": { "type": "stdio", "command": "db-mcp" },\n  },\n}\n';
    write(path, planted);
    const server = await startHttpServer({ env: w.env });
    try {
      const r = await json(w, ['ai', 'install', 'copilot', '--transport', 'http', '--url', server.url, '--yes']);
      expect(r).toMatchObject({ mcp: { action: 'installed', registrar: 'file', transport: 'http', url: server.url, path }, warnings: [] });
    } finally {
      await server.stop();
    }
    const { parse } = await import('jsonc-parser');
    const text = read(path);
    expect(text).toContain('/* team servers */');
    expect(parse(text).servers).toEqual({ db: { type: 'stdio', command: 'db-mcp' }, aihelper: { type: 'http', url: server.url } });
    expect(read(join(w.project, '.github', 'copilot-instructions.md'))).toContain(BEGIN);
    // Nothing answers now: the same install is unchanged, a different port warns but still installs.
    const moved = await json(w, ['ai', 'install', 'copilot', '--url', 'http://127.0.0.1:9/mcp', '--yes']);
    expect(moved.mcp).toMatchObject({ action: 'updated', url: 'http://127.0.0.1:9/mcp' });
    expect(moved.warnings.join('\n')).toContain('replacing the previous aihelper registration (http ');
    expect(moved.warnings.join('\n')).toContain('/health/ready');
    const err = await failure(w, ['ai', 'install', 'copilot', '--scope', 'user', '--yes']);
    expect(err.code).toBe('AI_SCOPE_UNSUPPORTED');
    await json(w, ['ai', 'uninstall', 'copilot']);
    expect(read(path)).toBe(planted);
  });

  test('opencode: edits the existing opencode.jsonc (comments kept), clears copies elsewhere; AGENTS.md holds one block shared with copilot-cli', async () => {
    const w = world();
    const jsonc = join(w.project, 'opencode.jsonc');
    const planted =
      '{\n  // opencode settings\n  "theme": "system",\n  "mcp": {\n    "mine": { "type": "remote", "url": "http://127.0.0.1:1/mcp" },\n  },\n}\n';
    write(jsonc, planted);
    write(join(w.project, 'AGENTS.md'), '# Agents\n\nUse pnpm.\n');
    const r = await json(w, ['ai', 'install', 'opencode', '--yes']);
    expect(r.mcp).toMatchObject({ action: 'installed', registrar: 'file', path: jsonc });
    const { parse } = await import('jsonc-parser');
    expect(parse(read(jsonc)).mcp.aihelper).toEqual({ type: 'local', command: [AH_BIN, 'mcp', 'serve'], enabled: true });
    expect(read(jsonc)).toContain('// opencode settings');
    const cli = await json(w, ['ai', 'install', 'copilot-cli', '--yes']);
    expect(cli.rules).toEqual({ action: 'unchanged', path: join(w.project, 'AGENTS.md') });
    // Copilot CLI's project config is the shared .mcp.json (Claude's shape).
    expect(JSON.parse(read(join(w.project, '.mcp.json'))).mcpServers.aihelper).toEqual({
      type: 'stdio',
      command: AH_BIN,
      args: ['mcp', 'serve'],
      env: {},
    });
    const agents = read(join(w.project, 'AGENTS.md'));
    expect(agents.split(BEGIN).length).toBe(2);
    expect(agents.startsWith('# Agents\n\nUse pnpm.\n\n<!--')).toBe(true);

    await json(w, ['ai', 'uninstall', 'opencode']);
    expect(read(jsonc)).toBe(planted);
    expect(read(join(w.project, 'AGENTS.md'))).toBe('# Agents\n\nUse pnpm.\n');
  });

  test('gemini project scope: .gemini/settings.json merged by ah, other keys kept; legacy ah entry removed; status reports legacy', async () => {
    const w = world();
    const path = join(w.project, '.gemini', 'settings.json');
    write(path, '{\n  // ui\n  "theme": "Dracula",\n  "mcpServers": {\n    "ah": { "command": "ah", "args": ["mcp", "serve"] }\n  }\n}\n');
    const status = await json(w, ['ai', 'status', 'gemini']);
    expect(status.warnings.join('\n')).toContain("legacy 'ah' registration");
    const r = await json(w, ['ai', 'install', 'gemini', '--mcp-only', '--yes']);
    expect(r).toMatchObject({ mcp: { action: 'installed', registrar: 'file', path }, rules: { action: 'skipped', path: null } });
    expect(r.warnings).toContain("removing the legacy 'ah' registration");
    const { parse } = await import('jsonc-parser');
    const settings = parse(read(path));
    expect(settings).toEqual({ theme: 'Dracula', mcpServers: { aihelper: { command: AH_BIN, args: ['mcp', 'serve'] } } });
    expect(read(path)).toContain('// ui');
    // gemini user scope without the gemini CLI: merged into $GEMINI_CLI_HOME/.gemini/settings.json.
    const geminiHome = join(w.home, 'gemini-home');
    const user = await runAh(['ai', 'install', 'gemini', '--scope', 'user', '--rules-only', '--json'], {
      env: { ...w.env, GEMINI_CLI_HOME: geminiHome },
      cwd: w.project,
    });
    expect(user.code, user.stderr).toBe(0);
    expect(user.json()).toMatchObject({
      mcp: { action: 'skipped' },
      rules: { action: 'installed', path: join(geminiHome, '.gemini', 'GEMINI.md') },
    });
  });

  test('claude without its CLI: local scope is AI_AGENT_CLI_MISSING; project scope is .mcp.json merged by ah; rules-only needs no CLI', async () => {
    const w = world();
    const missing = await failure(w, ['ai', 'install', 'claude', '--yes']);
    expect(missing).toMatchObject({ code: 'AI_AGENT_CLI_MISSING' });
    const project = await json(w, ['ai', 'install', 'claude', '--scope', 'project', '--yes']);
    expect(project).toMatchObject({
      scope: 'project',
      mcp: { action: 'installed', registrar: 'file', path: join(w.project, '.mcp.json') },
    });
    expect(read(join(w.project, 'CLAUDE.md'))).toContain(BEGIN);
    const rules = await json(w, ['ai', 'install', 'claude', '--rules-only', '--yes']);
    expect(rules).toMatchObject({ scope: 'local', mcp: { action: 'skipped' }, rules: { action: 'unchanged' } });
  });

  test('codex: ah edits its own [mcp_servers.aihelper] table in $CODEX_HOME/config.toml; comments and other tables stay byte for byte', async () => {
    const codexHome = join(tempDir('ah-codex-'), 'codex');
    const w = world({ CODEX_HOME: codexHome });
    const path = join(codexHome, 'config.toml');
    const planted =
      '# my codex\nmodel = "gpt-5" # fast\n\n[mcp_servers.other]\ncommand = "other-mcp" # keep\nargs = ["x"]\n\n[mcp_servers.ah]\ncommand = "ah"\n';
    write(path, planted);
    const r = await json(w, ['ai', 'install', 'codex', '--mcp-only', '--yes']);
    expect(r).toMatchObject({ scope: 'project', mcp: { action: 'installed', registrar: 'file', transport: 'stdio', path } });
    expect(r.warnings.join('\n')).toContain('codex keeps one global server list');
    const { parse } = await import('smol-toml');
    const servers = (parse(read(path)) as Record<string, any>).mcp_servers;
    expect(Object.keys(servers)).toEqual(['other', 'aihelper']);
    expect(servers.aihelper).toEqual({ command: AH_BIN, args: ['mcp', 'serve'] });
    expect(read(path).startsWith('# my codex\nmodel = "gpt-5" # fast\n\n[mcp_servers.other]\ncommand = "other-mcp" # keep\n')).toBe(true);
    expect((await json(w, ['ai', 'install', 'codex', '--mcp-only', '--yes'])).mcp.action).toBe('unchanged');
    await json(w, ['ai', 'uninstall', 'codex']);
    expect(read(path)).toBe(planted.replace('\n\n[mcp_servers.ah]\ncommand = "ah"\n', '\n'));
  });
});

describe('ah ai install: dry run, refusals and all', () => {
  test('--dry-run prints the exact file changes and changes nothing', async () => {
    const w = world();
    write(join(w.project, '.vscode', 'mcp.json'), '{ "servers": { "x": { "command": "x" } } }\n');
    const before = tree(w.project, w.home);
    const r = await w.ah(['ai', 'install', 'copilot', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`edit: ${join(w.project, '.vscode', 'mcp.json')}`);
    expect(r.stdout).toContain(`create: ${join(w.project, '.github', 'copilot-instructions.md')}`);
    expect(r.stdout).toContain(`+${BEGIN}`);
    expect(r.stdout).toContain('"aihelper"');
    expect(tree(w.project, w.home)).toEqual(before);
    const j = await json(w, ['ai', 'install', 'copilot', '--dry-run']);
    expect(j).toMatchObject({ dry_run: true, changed: false, mcp: { action: 'installed' }, rules: { action: 'installed' } });
    expect(tree(w.project, w.home)).toEqual(before);
  });

  test('an unparsable config is AI_CONFIG_UNPARSABLE and stays byte-identical; malformed rules block is refused', async () => {
    const w = world();
    const path = join(w.project, '.cursor', 'mcp.json');
    const broken = '{ "mcpServers": { "a": { "command": "x" }, \n';
    write(path, broken);
    const e = await failure(w, ['ai', 'install', 'cursor', '--yes']);
    expect(e.code).toBe('AI_CONFIG_UNPARSABLE');
    expect(read(path)).toBe(broken);
    const u = await failure(w, ['ai', 'uninstall', 'cursor']);
    expect(u.code).toBe('AI_CONFIG_UNPARSABLE');
    expect(read(path)).toBe(broken);
    const agents = join(w.project, 'AGENTS.md');
    write(agents, `# A\n${BEGIN}\nhalf a block\n`);
    const m = await failure(w, ['ai', 'install', 'opencode', '--rules-only', '--yes']);
    expect(m.code).toBe('AI_RULES_BLOCK_MALFORMED');
    expect(read(agents)).toBe(`# A\n${BEGIN}\nhalf a block\n`);
  });

  test('URL and flag rules', async () => {
    const w = world();
    expect((await failure(w, ['ai', 'install', 'cursor', '--url', 'http://10.0.0.1:8787/mcp', '--yes'])).code).toBe('AI_URL_NOT_LOOPBACK');
    expect((await failure(w, ['ai', 'install', 'cursor', '--transport', 'http', '--url', 'http://127.0.0.1:8787/x'])).code).toBe(
      'AI_URL_INVALID',
    );
    expect((await failure(w, ['ai', 'install', 'cursor', '--transport', 'stdio', '--url', 'http://127.0.0.1:8787/mcp'])).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await failure(w, ['ai', 'install', 'cursor', '--mcp-only', '--rules-only'])).code).toBe('INVALID_ARGUMENT');
    expect((await failure(w, ['ai', 'install', 'nope'])).code).toBe('INVALID_ARGUMENT');
    expect(tree(w.project, w.home)).toEqual({});
  });

  test('all: one report per present agent in a wrapper; status without a target covers every agent', async () => {
    const w = world();
    mkdirSync(join(w.project, '.vscode'));
    mkdirSync(join(w.home, '.cursor'));
    const r = await json(w, ['ai', 'install', 'all', '--yes']);
    expect(Object.keys(r)).toEqual(['command', 'schema_version', 'target', 'changed', 'dry_run', 'reports', 'warnings']);
    expect(r).toMatchObject({ command: 'ai.install', target: 'all', changed: true });
    expect(r.reports.map((x: { target: string }) => x.target)).toEqual(['cursor', 'copilot']);
    for (const report of r.reports) expect(Object.keys(report)).toEqual(REPORT_KEYS);
    const status = await json(w, ['ai', 'status']);
    expect(status.reports.map((x: { target: string }) => x.target)).toEqual([
      'claude',
      'codex',
      'gemini',
      'cursor',
      'copilot',
      'copilot-cli',
      'opencode',
    ]);
    for (const report of status.reports) expect(Object.keys(report)).toEqual([...REPORT_KEYS, 'scopes']);
    expect(status.reports[3].mcp.action).toBe('installed');
    const none = world();
    expect((await failure(none, ['ai', 'install', 'all', '--yes'])).code).toBe('AI_NO_AGENT_FOUND');
  });

  test('outside a git project the working directory is the project; status shows user rows only', async () => {
    const w = world();
    const plain = tempDir('ah-ai-plain-');
    const r = await runAh(['ai', 'status', 'opencode', '--json'], { env: w.env, cwd: plain });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<Record<string, any>>().scopes.map((s: { scope: string }) => s.scope)).toEqual(['user']);
    const i = await runAh(['ai', 'install', 'copilot', '--yes', '--json'], { env: w.env, cwd: plain });
    expect(i.json<Record<string, any>>().mcp.path).toBe(join(plain, '.vscode', 'mcp.json'));
  });
});

describe('ah ai install on a terminal', () => {
  test('asks scope, components, transport, shows every change, applies on yes; declining changes nothing', async () => {
    const w = world();
    const steps = [
      { waitFor: 'Scope', send: '\r' },
      { waitFor: 'Components', send: '\r' },
      { waitFor: 'Transport', send: '\r' },
      { waitFor: 'Apply these changes?', send: 'n' },
      { waitFor: 'No', send: '\r' },
    ];
    const before = tree(w.project, w.home);
    const declined = await runOnPty(['ai', 'install', 'cursor'], { env: w.env, cwd: w.project, steps, columns: 140 });
    expect(declined.code, declined.transcript).toBe(0);
    expect(declined.transcript).toContain(`create: ${join(w.project, '.cursor', 'mcp.json')}`);
    expect(declined.transcript).toContain('mcp:   skipped');
    expect(tree(w.project, w.home)).toEqual(before);

    const yes = [...steps.slice(0, 3), { waitFor: 'Apply these changes?', send: '\r' }];
    const applied = await runOnPty(['ai', 'install', 'cursor'], { env: w.env, cwd: w.project, steps: yes, columns: 140 });
    expect(applied.code, applied.transcript).toBe(0);
    expect(applied.transcript).toContain('stdio (the agent starts ah)');
    expect(applied.transcript).toContain('http (a server you run on 127.0.0.1)');
    expect(applied.transcript).toContain('mcp:   installed stdio');
    expect(read(join(w.project, '.cursor', 'rules', 'ah.mdc'))).toContain(BEGIN);
  });
});
