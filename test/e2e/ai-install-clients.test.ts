// `ah ai install|uninstall|status` verified by the real agent clients (issue 14): for every target,
// scope and transport, ah registers `aihelper`, the client's own listing shows it (started, where
// the client starts servers), a second install changes nothing, status agrees, and uninstall
// leaves every planted server, key, comment and rules line as it was. Cursor and VS Code have no
// CLI here: their files are checked against the documented schema instead.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, type ExpectStatic, expect, it } from 'vitest';
import { loadAjv } from '../../src/catalog/ajv-loader.js';
import { claudeGet, type ListedServer, listServers, listServersSettled, parseJsonc } from '../helpers/agent-clients.js';
import { AH_BIN, isolatedEnv, runAh } from '../helpers/cli.js';
import { type AgentCli, clientHome, clientNeed, runClient } from '../helpers/clients.js';
import { type HttpServer, startHttpServer } from '../helpers/http.js';
import { unavailable } from '../helpers/requires.js';
import { suiteTempDir } from '../helpers/tmp.js';

type Scope = 'local' | 'project' | 'user';
type Transport = 'stdio' | 'http';

const NAME = 'aihelper';
const BEGIN = '<!-- ah:begin (managed by `ah ai install`) -->';
const END = '<!-- ah:end -->';
/** Long: a case may first wait for a slot, and every client start takes seconds on 2 busy cores. */
const CASE_TIMEOUT = 1_200_000;

/**
 * At most `n` bodies at once. Vitest's concurrency (5) is for the whole run; each case here starts
 * clients that start servers, and more than a few at once push client timeouts (Gemini: 5 s per
 * server) over the edge on a 2-core machine.
 */
function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(body: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      return await body();
    } finally {
      // Hand the slot straight to the next waiter, or give it back.
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}
const slot = limiter(3);

let http: HttpServer;

beforeAll(async () => {
  // One HTTP server for every http case: each client start already costs seconds.
  http = await startHttpServer({ env: isolatedEnv({}, { suite: true }).env });
  // Copilot CLI unpacks itself into a shared cache on its first start; do it once, before the
  // concurrent cases race for it.
  if (clientNeed('copilot').probe() === null) {
    const { home, env } = clientHome({ suite: true });
    await runClient('copilot', ['--version'], env, home, 120_000);
  }
}, 180_000);

afterAll(async () => {
  await http?.stop();
});

/** A private HOME (every client pointed into it) and a git project beside it. */
interface Sandbox {
  home: string;
  project: string;
  /** For the clients' own listings. */
  env: NodeJS.ProcessEnv;
  /** For ah: the same, but Gemini is not told to trust the folder (the harder, real case). */
  ahEnv: NodeJS.ProcessEnv;
}

/** Lives until the end of the file: per-test temp dirs would be removed under concurrent tests. */
function sandbox(): Sandbox {
  const { home, env } = clientHome({ suite: true });
  const project = suiteTempDir('ah-project-');
  const init = spawnSync('git', ['init', '-q', project], { env: { ...env, GIT_CONFIG_NOSYSTEM: '1' } });
  expect(init.status, init.stderr?.toString()).toBe(0);
  const { GEMINI_CLI_TRUST_WORKSPACE: _trust, ...ahEnv } = env;
  return { home, project, env, ahEnv };
}

// ---------------------------------------------------------------------------------------------
// What each target's config looks like before ah runs, and how much of it must survive.

/**
 * One planted file. `bytes`: identical after uninstall. A function: a semantic check, for files the
 * client itself rewrites with state of its own (Claude's ~/.claude.json).
 */
interface Plant {
  path: string;
  text: string;
  keep: 'bytes' | ((before: string, after: string) => void);
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const failing = { command: '/bin/false', args: ['planted'] };
const RULES_TEXT = '# Notes planted by the test\n\nKeep this line exactly.\n';

/** Claude's state file: the planted servers and keys survive; Claude may add keys of its own. */
function claudeStateKept(project: string) {
  return (before: string, after: string) => {
    const was = JSON.parse(before) as Record<string, any>;
    const now = JSON.parse(after) as Record<string, any>;
    expect(now).toMatchObject(was);
    expect(Object.keys(now.mcpServers ?? {})).toEqual(Object.keys(was.mcpServers));
    expect(Object.keys(now.projects?.[project]?.mcpServers ?? {})).toEqual(Object.keys(was.projects[project].mcpServers));
  };
}

interface TargetSpec {
  target: string;
  scopes: Scope[];
  /** The client whose own listing proves the registration; null: file-only (schema-checked). */
  cli: AgentCli | null;
  /** Files present before install (every layer of the target, whatever the scope under test). */
  plant(s: Sandbox): Plant[];
  /** Planted server names the client must still list after uninstall. */
  planted: string[];
  /** For file-only targets: where the entry lives at a scope, under which key, and the schema. */
  file?: (scope: Scope, s: Sandbox) => { path: string; key: string; schema: object };
}

const TARGETS: TargetSpec[] = [
  {
    target: 'claude',
    scopes: ['local', 'project', 'user'],
    cli: 'claude',
    planted: ['planted-user', 'planted-local', 'planted-project'],
    plant: ({ home, project }) => [
      {
        // hasTrustDialogAccepted + enabledMcpjsonServers: without both, Claude 2.1.332 lists
        // .mcp.json servers as "Pending approval" and never starts them.
        path: join(home, '.claude', '.claude.json'),
        text: JSON.stringify({
          plantedTop: [1, 2],
          mcpServers: { 'planted-user': { type: 'stdio', ...failing, env: {} } },
          projects: {
            [project]: {
              hasTrustDialogAccepted: true,
              plantedKey: 'keep',
              mcpServers: { 'planted-local': { type: 'stdio', ...failing, env: {} } },
            },
          },
        }),
        keep: claudeStateKept(project),
      },
      {
        // Claude rewrites .mcp.json as two-space JSON without a final newline: planted in that form,
        // a round trip through `claude mcp add/remove` gives the same bytes back.
        path: join(project, '.mcp.json'),
        text: JSON.stringify({ mcpServers: { 'planted-project': { type: 'stdio', ...failing, env: {} } }, plantedKey: true }, null, 2),
        keep: 'bytes',
      },
      {
        path: join(project, '.claude', 'settings.local.json'),
        text: `${JSON.stringify({ enabledMcpjsonServers: [NAME, 'planted-project'] }, null, 2)}\n`,
        keep: 'bytes',
      },
      { path: join(project, 'CLAUDE.md'), text: RULES_TEXT, keep: 'bytes' },
    ],
  },
  {
    target: 'codex',
    scopes: ['project', 'user'],
    cli: 'codex',
    planted: ['planted-one'],
    plant: ({ home, project }) => [
      {
        // Codex rewrites every [mcp_servers.*] table in its own layout (dropping comments inside
        // them) and leaves the rest of the file alone: comments live outside those tables here.
        path: join(home, '.codex', 'config.toml'),
        text: [
          '# planted: a comment at the top',
          'model = "o3"   # a trailing comment',
          '',
          '[profiles.fast]',
          '# a comment inside another table',
          'model = "o4-mini"',
          '',
          '[mcp_servers.planted-one]',
          'command = "/bin/false"',
          'args = ["planted"]',
          '',
          '[mcp_servers.planted-one.env]',
          'PLANTED = "1"',
          '',
        ].join('\n'),
        keep: 'bytes',
      },
      { path: join(project, 'AGENTS.md'), text: RULES_TEXT, keep: 'bytes' },
    ],
  },
  {
    target: 'gemini',
    scopes: ['project', 'user'],
    cli: 'gemini',
    planted: ['planted-user', 'planted-project'],
    plant: ({ home, project }) => [
      {
        // `gemini mcp add/remove -s user` keeps comments but pretty-prints the file (two spaces, no
        // final newline): planted in that form, so the bytes must come back.
        path: join(home, '.gemini', 'settings.json'),
        text: [
          '{',
          '  // planted: a user comment',
          '  "general": {',
          '    "vimMode": true',
          '  },',
          '  "mcpServers": {',
          '    /* planted server */',
          '    "planted-user": {',
          '      "command": "/bin/false",',
          '      "args": [',
          '        "planted"',
          '      ]',
          '    }',
          '  }',
          '}',
        ].join('\n'),
        keep: 'bytes',
      },
      {
        // Project settings are merged by ah itself (gemini's CLI would wipe this file in an
        // untrusted folder): any layout and every comment must survive. Gemini rejects trailing commas.
        path: join(project, '.gemini', 'settings.json'),
        text: '{\n  // planted project comment\n  "ui": { "theme": "Default" },\n  "mcpServers": {\n    /* keep */ "planted-project": { "command": "/bin/false", "args": ["planted"] }\n  }\n}\n',
        keep: 'bytes',
      },
      { path: join(project, 'GEMINI.md'), text: RULES_TEXT, keep: 'bytes' },
    ],
  },
  {
    target: 'opencode',
    scopes: ['project', 'user'],
    cli: 'opencode',
    planted: ['planted-user', 'planted-project'],
    plant: ({ home, project }) => [
      {
        path: join(home, '.config', 'opencode', 'opencode.jsonc'),
        text: '{\n  "$schema": "https://opencode.ai/config.json",\n  // planted user comment\n  "mcp": {\n    "planted-user": { "type": "local", "command": ["/bin/false"], "enabled": false }, // trailing\n  },\n}\n',
        keep: 'bytes',
      },
      {
        // OpenCode inserts "$schema" into every config file it loads: planted with it already.
        path: join(project, 'opencode.jsonc'),
        text: '{\n  "$schema": "https://opencode.ai/config.json",\n  /* planted project comment */\n  "mcp": {\n    "planted-project": {\n      "type": "remote",\n      "url": "http://127.0.0.1:9/mcp",\n      "enabled": false,\n    },\n  },\n  "theme": "opencode",\n}\n',
        keep: 'bytes',
      },
      { path: join(project, 'AGENTS.md'), text: RULES_TEXT, keep: 'bytes' },
    ],
  },
  {
    target: 'copilot-cli',
    scopes: ['project', 'user'],
    cli: 'copilot',
    planted: ['planted-user', 'planted-project'],
    plant: ({ home, project }) => [
      {
        // `copilot mcp add/remove` rewrites mcp-config.json as two-space JSON with a final newline and
        // adds "tools": ["*"] to every server, planted ones included: planted in that form.
        path: join(home, '.copilot', 'mcp-config.json'),
        text: `${JSON.stringify({ mcpServers: { 'planted-user': { tools: ['*'], ...failing } }, plantedKey: [1, 2] }, null, 2)}\n`,
        keep: 'bytes',
      },
      {
        // Copilot CLI reads workspace servers only in trusted folders.
        path: join(home, '.copilot', 'config.json'),
        text: `${JSON.stringify({ trustedFolders: [project] })}\n`,
        keep: 'bytes',
      },
      {
        path: join(project, '.mcp.json'),
        text: '{"mcpServers": {"planted-project": {"command": "/bin/false", "args": ["planted"]}},\n "plantedKey": true}\n',
        keep: 'bytes',
      },
      { path: join(project, 'AGENTS.md'), text: RULES_TEXT, keep: 'bytes' },
    ],
  },
  {
    target: 'cursor',
    scopes: ['project', 'user'],
    cli: null,
    planted: ['planted-user', 'planted-project'],
    plant: ({ home, project }) => [
      {
        path: join(home, '.cursor', 'mcp.json'),
        text: '{\n\t"mcpServers": {"planted-user": {"command": "/bin/false", "args": ["planted"]}},\n\t"plantedKey": 1\n}\n',
        keep: 'bytes',
      },
      {
        path: join(project, '.cursor', 'mcp.json'),
        text: '{ "mcpServers": { "planted-project": { "url": "http://127.0.0.1:9/mcp" } } }',
        keep: 'bytes',
      },
    ],
    file: (scope, { home, project }) => ({
      path: join(scope === 'user' ? home : project, '.cursor', 'mcp.json'),
      key: 'mcpServers',
      schema: CURSOR_SCHEMA,
    }),
  },
  {
    target: 'copilot',
    scopes: ['project'],
    cli: null,
    planted: ['planted-project'],
    plant: ({ project }) => [
      {
        path: join(project, '.vscode', 'mcp.json'),
        text: '{\n  // planted: VS Code reads comments and trailing commas here\n  "inputs": [],\n  "servers": {\n    "planted-project": { "type": "stdio", "command": "/bin/false", "args": ["planted"], },\n  },\n}\n',
        keep: 'bytes',
      },
      { path: join(project, '.github', 'copilot-instructions.md'), text: RULES_TEXT, keep: 'bytes' },
    ],
    file: (_scope, { project }) => ({ path: join(project, '.vscode', 'mcp.json'), key: 'servers', schema: VSCODE_SCHEMA }),
  },
];

// ---------------------------------------------------------------------------------------------
// The documented file formats of the two clients without a CLI (the subset ah may write).

const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
const httpUrl = { type: 'string', pattern: '^https?://' };

/** Cursor's mcp.json (docs.cursor.com, "Model Context Protocol"): stdio or remote entries. */
const CURSOR_SCHEMA = {
  type: 'object',
  required: ['mcpServers'],
  properties: {
    mcpServers: {
      type: 'object',
      additionalProperties: {
        oneOf: [
          {
            type: 'object',
            required: ['command'],
            properties: {
              type: { const: 'stdio' },
              command: { type: 'string', minLength: 1 },
              args: { type: 'array', items: { type: 'string' } },
              env: stringMap,
              envFile: { type: 'string' },
            },
            additionalProperties: false,
          },
          {
            type: 'object',
            required: ['url'],
            properties: { type: { enum: ['http', 'streamable-http', 'sse'] }, url: httpUrl, headers: stringMap },
            additionalProperties: false,
          },
        ],
      },
    },
  },
};

/** VS Code's mcp.json (vscode-docs, agents/reference/mcp-configuration): `servers` and `inputs`. */
const VSCODE_SCHEMA = {
  type: 'object',
  properties: {
    inputs: {
      type: 'array',
      items: { type: 'object', required: ['type', 'id'], properties: { type: { type: 'string' }, id: { type: 'string' } } },
    },
    servers: {
      type: 'object',
      additionalProperties: {
        oneOf: [
          {
            type: 'object',
            required: ['type', 'command'],
            properties: {
              type: { const: 'stdio' },
              command: { type: 'string', minLength: 1 },
              args: { type: 'array', items: { type: 'string' } },
              env: { type: 'object', additionalProperties: { type: ['string', 'number', 'null'] } },
              envFile: { type: 'string' },
              cwd: { type: 'string' },
              dev: { type: 'object' },
            },
            additionalProperties: false,
          },
          {
            type: 'object',
            required: ['type', 'url'],
            properties: { type: { enum: ['http', 'sse'] }, url: httpUrl, headers: stringMap, dev: { type: 'object' } },
            additionalProperties: false,
          },
        ],
      },
    },
  },
  additionalProperties: false,
};

const ajv = new (loadAjv().Ajv2020)({ allErrors: true, strict: true, allowUnionTypes: true });

/** A file-only target's entry, after checking the whole file against its client's schema. */
function entryFromFile(path: string, key: string, schema: object): ListedServer | null {
  const config = parseJsonc(readFileSync(path, 'utf8'));
  const validate = ajv.compile(schema);
  expect(validate(config), `${path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  const entry = (config as Record<string, Record<string, Record<string, unknown>>>)[key]?.[NAME];
  if (entry === undefined) return null;
  if (typeof entry.url === 'string') return { name: NAME, transport: 'http', url: entry.url, status: 'configured' };
  return { name: NAME, transport: 'stdio', command: entry.command as string, args: (entry.args as string[]) ?? [], status: 'configured' };
}

// ---------------------------------------------------------------------------------------------
// Expectations shared by every case.

/** The entry runs this worktree's ah by absolute path (directly, or through an absolute node). */
function expectAhLaunch(server: ListedServer): void {
  const argv = [server.command ?? '', ...(server.args ?? [])];
  expect(isAbsolute(argv[0] ?? ''), `command ${argv[0]} is not absolute`).toBe(true);
  const at = argv.indexOf(AH_BIN);
  const direct = at === 0;
  const viaNode = at === 1 && /^node(\.exe)?$/.test(basename(argv[0] ?? ''));
  expect(direct || viaNode, `unexpected launch: ${argv.join(' ')}`).toBe(true);
  expect(argv.slice(at + 1)).toEqual(['mcp', 'serve']);
}

function expectEntry(server: ListedServer | null | undefined, transport: Transport, where: string): void {
  expect(server, `${NAME} missing in ${where}`).toBeTruthy();
  if (!server) return;
  expect(server.transport).toBe(transport);
  if (transport === 'http') expect(server.url).toBe(http.url);
  else expectAhLaunch(server);
}

/** Every path a report names is inside the sandbox: nothing leaks into the real HOME. */
function expectInside(path: string | null, s: Sandbox): void {
  if (path === null) return;
  expect(path.startsWith(`${s.home}/`) || path.startsWith(`${s.project}/`), `${path} is outside the sandbox`).toBe(true);
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

/**
 * The config and rules files in the sandbox (client caches, logs and state directories aside),
 * sorted: what a dry run must leave exactly as it found.
 */
function listFiles(s: Sandbox): string[] {
  const skip = new Set(['.cache', '.local', 'ah-config', '.git', 'tmp', 'history', 'log', 'logs']);
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      if (skip.has(e.name)) return [];
      const path = join(dir, e.name);
      return e.isDirectory() ? walk(path) : [path];
    });
  return [...walk(s.home), ...walk(s.project)].sort();
}

interface Report {
  command: string;
  schema_version: number;
  target: string;
  scope: string;
  changed: boolean;
  dry_run: boolean;
  mcp: { action: string; registrar: string | null; transport: string | null; url: string | null; path: string | null };
  rules: { action: string; path: string | null };
  managed_service: unknown;
  warnings: string[];
  scopes?: { scope: string; mcp: Report['mcp'] | null; rules: Report['rules'] | null }[];
}

async function ah(s: Sandbox, args: string[]): Promise<Report> {
  const run = await runAh([...args, '--json'], { cwd: s.project, env: s.ahEnv, timeoutMs: 300_000 });
  expect(run.code, `ah ${args.join(' ')} exited ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`).toBe(0);
  return run.json<Report>();
}

/** What the target's client (or file) shows for aihelper, plus the other server names it shows. */
async function observe(
  spec: TargetSpec,
  scope: Scope,
  s: Sandbox,
): Promise<{ entry: ListedServer | null; names: string[]; output: string }> {
  if (spec.cli === null) {
    const file = spec.file?.(scope, s);
    if (!file) throw new Error(`${spec.target}: no file description`);
    const names = spec.plant(s).flatMap((p) => {
      if (!p.path.endsWith('.json')) return [];
      const config = parseJsonc(readFileSync(p.path, 'utf8')) as Record<string, Record<string, unknown>>;
      return Object.keys(config[file.key] ?? {});
    });
    return { entry: entryFromFile(file.path, file.key, file.schema), names, output: readFileSync(file.path, 'utf8') };
  }
  const listing = await listServersSettled(spec.cli, s.env, s.project, [NAME]);
  return { entry: listing.servers.find((x) => x.name === NAME) ?? null, names: listing.servers.map((x) => x.name), output: listing.output };
}

// ---------------------------------------------------------------------------------------------

describe.concurrent('listing helpers read what each client’s own `mcp add` wrote', () => {
  // Registers aihelper (stdio) and aihelper-http with the client's own command, so the parsers are
  // proven against each client's real output before ah is involved.
  const ADD: Record<AgentCli, (url: string) => string[][]> = {
    claude: (url) => [
      ['mcp', 'add', '-s', 'user', NAME, '--', AH_BIN, 'mcp', 'serve'],
      ['mcp', 'add', '-s', 'user', '-t', 'http', `${NAME}-http`, url],
    ],
    codex: (url) => [
      ['mcp', 'add', NAME, '--', AH_BIN, 'mcp', 'serve'],
      ['mcp', 'add', `${NAME}-http`, '--url', url],
    ],
    gemini: (url) => [
      ['mcp', 'add', '-s', 'user', NAME, AH_BIN, 'mcp', 'serve'],
      ['mcp', 'add', '-s', 'user', '-t', 'http', `${NAME}-http`, url],
    ],
    opencode: (url) => [
      ['mcp', 'add', NAME, '--', AH_BIN, 'mcp', 'serve'],
      ['mcp', 'add', `${NAME}-http`, '--url', url],
    ],
    copilot: (url) => [
      ['mcp', 'add', NAME, '--', AH_BIN, 'mcp', 'serve'],
      ['mcp', 'add', '--transport', 'http', `${NAME}-http`, url],
    ],
  };
  const started: Record<AgentCli, ListedServer['status']> = {
    claude: 'connected',
    codex: 'connected',
    gemini: 'connected',
    opencode: 'connected',
    copilot: 'configured',
  };
  for (const cli of Object.keys(ADD) as AgentCli[]) {
    const title = `${cli}: stdio and http entries`;
    it.skipIf(unavailable(`ai install clients: ${title}`, clientNeed(cli)))(
      title,
      async () =>
        slot(async () => {
          const s = sandbox();
          for (const args of ADD[cli](http.url)) {
            const added = await runClient(cli, args, s.env, s.project);
            expect(added.code, added.output).toBe(0);
          }
          const { servers, output } = await listServersSettled(cli, s.env, s.project, [NAME, `${NAME}-http`]);
          const stdio = servers.find((x) => x.name === NAME);
          const remote = servers.find((x) => x.name === `${NAME}-http`);
          expect(stdio, output).toMatchObject({ transport: 'stdio', command: AH_BIN, args: ['mcp', 'serve'], status: started[cli] });
          expect(remote, output).toMatchObject({ transport: 'http', url: http.url, status: started[cli] });
          if (cli === 'claude') {
            const got = await claudeGet(NAME, s.env, s.project);
            expect(got.server, got.output).toMatchObject({
              scope: 'user',
              transport: 'stdio',
              command: AH_BIN,
              args: ['mcp', 'serve'],
              status: 'connected',
            });
            expect((await claudeGet('absent', s.env, s.project)).server).toBeNull();
          }
        }),
      CASE_TIMEOUT,
    );
  }
});

describe.concurrent('ah ai install / uninstall / status, checked by the real clients', () => {
  for (const spec of TARGETS) {
    for (const scope of spec.scopes) {
      for (const transport of ['stdio', 'http'] as const) {
        const title = `${spec.target} --scope ${scope} --transport ${transport}`;
        const skip = spec.cli !== null && unavailable(`ai install clients: ${title}`, clientNeed(spec.cli));
        it.skipIf(skip)(title, async ({ expect: local }) => slot(() => runCase(spec, scope, transport, local)), CASE_TIMEOUT);
      }
    }
  }
});

/** `local`: the test's own expect (concurrent tests need it for expect.soft). */
async function runCase(spec: TargetSpec, scope: Scope, transport: Transport, local: ExpectStatic): Promise<void> {
  const s = sandbox();
  const plants = spec.plant(s);
  for (const p of plants) write(p.path, p.text);
  const rulesPlant = plants.find((p) => p.text === RULES_TEXT);
  const flags = ['--scope', scope, '--transport', transport, ...(transport === 'http' ? ['--url', http.url] : []), '-y'];

  // 0. A dry run reports the plan and changes nothing: every planted file keeps its bytes and no
  //    other file appears in the sandbox.
  const filesBefore = listFiles(s);
  const dry = await ah(s, ['ai', 'install', spec.target, ...flags, '--dry-run']);
  expect(dry).toMatchObject({ command: 'ai.install', target: spec.target, scope, dry_run: true, changed: false });
  for (const p of plants) expect(readFileSync(p.path, 'utf8'), `${p.path} changed by --dry-run`).toBe(p.text);
  expect(listFiles(s), 'files created by --dry-run').toEqual(filesBefore);

  // 1. Install: the report, then what the client itself sees.
  const installed = await ah(s, ['ai', 'install', spec.target, ...flags]);
  expect(installed).toMatchObject({
    command: 'ai.install',
    schema_version: 1,
    target: spec.target,
    scope,
    changed: true,
    dry_run: false,
    mcp: { action: 'installed', transport, url: transport === 'http' ? http.url : null },
    managed_service: null,
  });
  expect(Array.isArray(installed.warnings)).toBe(true);
  expect(['cli', 'file']).toContain(installed.mcp.registrar);
  expectInside(installed.mcp.path, s);
  expectInside(installed.rules.path, s);
  if (spec.target === 'codex' && scope === 'project') {
    // Codex has one global server list: the report must say the project scope went there.
    expect(installed.warnings.length, JSON.stringify(installed)).toBeGreaterThan(0);
  }
  const rulesPath = installed.rules.path;
  if (rulesPath === null) {
    expect(['installed', 'updated', 'removed']).not.toContain(installed.rules.action);
  } else {
    expect(installed.rules.action).toBe('installed');
    const rules = readFileSync(rulesPath, 'utf8');
    expect(count(rules, BEGIN), rulesPath).toBe(1);
    expect(count(rules, END), rulesPath).toBe(1);
    if (scope !== 'user' && rulesPlant) {
      expect(rulesPath).toBe(rulesPlant.path);
      expect(rules.startsWith(RULES_TEXT), 'the planted rules text comes first, untouched').toBe(true);
    }
    if (spec.target === 'cursor') expect(rules).toMatch(/^---\n(?:.*\n)*?alwaysApply: true\n(?:.*\n)*?---\n/);
  }

  const seen = await observe(spec, scope, s);
  expectEntry(seen.entry, transport, seen.output);
  if (seen.entry && spec.cli !== null) {
    expect(seen.entry.status, seen.output).toBe(spec.cli === 'copilot' ? 'configured' : 'connected');
  }
  if (spec.cli === 'copilot') expect(seen.entry?.scope).toBe(scope === 'project' ? 'workspace' : 'user');
  if (spec.cli === 'claude') {
    const got = await claudeGet(NAME, s.env, s.project);
    expect(got.server, got.output).toMatchObject({ scope, status: 'connected' });
  }
  for (const name of spec.planted) expect(seen.names, seen.output).toContain(name);

  // 2. A second install finds the same registration: nothing to do, no file touched.
  const touched = [installed.mcp.path, rulesPath, ...plants.map((p) => p.path)].filter((p): p is string => p !== null);
  const snapshot = new Map(touched.map((p) => [p, existsSync(p) ? readFileSync(p, 'utf8') : null]));
  const again = await ah(s, ['ai', 'install', spec.target, ...flags]);
  expect(again).toMatchObject({ command: 'ai.install', changed: false, mcp: { action: 'unchanged', transport } });
  if (rulesPath !== null) expect(again.rules).toEqual({ action: 'unchanged', path: rulesPath });
  for (const [path, text] of snapshot) {
    if (path.endsWith('.claude.json')) continue; // Claude's own state file: Claude writes to it when it runs.
    expect(existsSync(path) ? readFileSync(path, 'utf8') : null, `${path} changed on a second install`).toBe(text);
  }

  // 3. Status agrees (it reads; it does not start the client).
  const status = await ah(s, ['ai', 'status', spec.target]);
  expect(status).toMatchObject({ command: 'ai.status', schema_version: 1, target: spec.target });
  const row = status.scopes?.find((r) => r.scope === scope);
  expect(row, JSON.stringify(status)).toBeTruthy();
  expect(row?.mcp).toMatchObject({ action: 'installed', transport, url: transport === 'http' ? http.url : null });
  if (rulesPath !== null) expect(row?.rules).toMatchObject({ action: 'installed', path: rulesPath });

  // 4. Uninstall: gone from the client's view, everything planted is back as it was.
  const removed = await ah(s, ['ai', 'uninstall', spec.target, '--scope', scope]);
  expect(removed).toMatchObject({
    command: 'ai.uninstall',
    schema_version: 1,
    target: spec.target,
    scope,
    changed: true,
    mcp: { action: 'removed' },
  });
  if (rulesPath !== null) expect(removed.rules).toMatchObject({ action: 'removed', path: rulesPath });

  const after = await observe(spec, scope, s);
  expect(after.entry, after.output).toBeNull();
  for (const name of spec.planted) expect(after.names, after.output).toContain(name);
  // Soft: a layout change is reported, and the remaining steps still run.
  for (const p of plants) {
    const now = readFileSync(p.path, 'utf8');
    if (p.keep === 'bytes') local.soft(now, `${p.path} differs from what was planted`).toBe(p.text);
    else p.keep(p.text, now);
  }
  // A rules file ah created (none was planted there) is gone again.
  if (rulesPath !== null && !plants.some((p) => p.path === rulesPath)) expect(existsSync(rulesPath), rulesPath).toBe(false);

  const statusAfter = await ah(s, ['ai', 'status', spec.target]);
  expect(statusAfter.scopes?.find((r) => r.scope === scope)?.mcp).toMatchObject({ action: 'not_present' });

  // 5. Uninstalling again is a no-op.
  const twice = await ah(s, ['ai', 'uninstall', spec.target, '--scope', scope]);
  expect(twice).toMatchObject({ changed: false, mcp: { action: 'not_present' } });
}

describe.concurrent('a legacy `ah` registration', () => {
  const title = 'claude: status reports it, install replaces it with aihelper (Claude’s own listing)';
  it.skipIf(unavailable(`ai install clients: ${title}`, clientNeed('claude')))(
    title,
    async () =>
      slot(async () => {
        const s = sandbox();
        const legacy = await runClient('claude', ['mcp', 'add', '-s', 'user', 'ah', '--', '/bin/false', 'legacy'], s.env, s.project);
        expect(legacy.code, legacy.output).toBe(0);
        const status = await ah(s, ['ai', 'status', 'claude']);
        expect(
          status.warnings.some((w) => /\bah\b/.test(w)),
          JSON.stringify(status.warnings),
        ).toBe(true);

        await ah(s, ['ai', 'install', 'claude', '--scope', 'user', '-y', '--mcp-only']);
        const { servers, output } = await listServersSettled('claude', s.env, s.project, [NAME]);
        expect(
          servers.map((x) => x.name),
          output,
        ).not.toContain('ah');
        expectEntry(
          servers.find((x) => x.name === NAME),
          'stdio',
          output,
        );
      }),
    CASE_TIMEOUT,
  );

  it('cursor: install and uninstall each remove it from the file, other servers stay', async () => {
    const s = sandbox();
    const path = join(s.project, '.cursor', 'mcp.json');
    const withLegacy = `${JSON.stringify({ mcpServers: { 'planted-project': failing, ah: { command: '/bin/false', args: ['legacy'] } } }, null, 2)}\n`;
    const servers = () => Object.keys((parseJsonc(readFileSync(path, 'utf8')) as { mcpServers: object }).mcpServers);

    write(path, withLegacy);
    const removed = await ah(s, ['ai', 'uninstall', 'cursor', '--scope', 'project']);
    expect(removed.changed).toBe(true);
    expect(servers()).toEqual(['planted-project']);

    write(path, withLegacy);
    await ah(s, ['ai', 'install', 'cursor', '--scope', 'project', '-y', '--mcp-only']);
    expect(servers().sort()).toEqual([NAME, 'planted-project']);
    expect(entryFromFile(path, 'mcpServers', CURSOR_SCHEMA)).toBeTruthy();
  });
});

describe('ah ai install all', () => {
  const clis: AgentCli[] = ['claude', 'codex', 'gemini', 'opencode', 'copilot'];
  const title = 'registers every present target once, shares AGENTS.md, and uninstall all takes it all back';
  it.skipIf(unavailable(`ai install clients: install all: ${title}`, ...clis.map(clientNeed)))(
    title,
    async () =>
      slot(async () => {
        const s = sandbox();
        // Cursor and VS Code count as present when their project folders exist.
        mkdirSync(join(s.project, '.cursor'));
        mkdirSync(join(s.project, '.vscode'));
        // Approvals the clients need before they list project servers (Claude, Copilot CLI).
        write(join(s.home, '.claude', '.claude.json'), JSON.stringify({ projects: { [s.project]: { hasTrustDialogAccepted: true } } }));
        write(join(s.project, '.claude', 'settings.local.json'), JSON.stringify({ enabledMcpjsonServers: [NAME] }));
        write(join(s.home, '.copilot', 'config.json'), JSON.stringify({ trustedFolders: [s.project] }));

        const run = await runAh(['ai', 'install', 'all', '--transport', 'http', '--url', http.url, '-y', '--json'], {
          cwd: s.project,
          env: s.ahEnv,
          timeoutMs: 300_000,
        });
        expect(run.code, run.stderr).toBe(0);
        const all = run.json<{ command: string; target: string; changed: boolean; reports: Report[] }>();
        expect(all).toMatchObject({ command: 'ai.install', target: 'all', changed: true });
        expect(all.reports.map((r) => r.target).sort()).toEqual([
          'claude',
          'codex',
          'copilot',
          'copilot-cli',
          'cursor',
          'gemini',
          'opencode',
        ]);
        for (const r of all.reports) expect(r.mcp, r.target).toMatchObject({ action: 'installed', transport: 'http', url: http.url });

        // AGENTS.md serves Codex, OpenCode and Copilot CLI: one block, not one per target.
        const agents = readFileSync(join(s.project, 'AGENTS.md'), 'utf8');
        expect(count(agents, BEGIN)).toBe(1);

        const listings = await Promise.all(clis.map((cli) => listServersSettled(cli, s.env, s.project, [NAME])));
        listings.forEach((listing, i) => {
          expectEntry(
            listing.servers.find((x) => x.name === NAME),
            'http',
            `${clis[i]}: ${listing.output}`,
          );
        });
        for (const [path, key, schema] of [
          [join(s.project, '.cursor', 'mcp.json'), 'mcpServers', CURSOR_SCHEMA],
          [join(s.project, '.vscode', 'mcp.json'), 'servers', VSCODE_SCHEMA],
        ] as const) {
          expectEntry(entryFromFile(path, key, schema), 'http', path);
        }

        const again = await runAh(['ai', 'install', 'all', '--transport', 'http', '--url', http.url, '-y', '--json'], {
          cwd: s.project,
          env: s.ahEnv,
          timeoutMs: 300_000,
        });
        expect(again.code, again.stderr).toBe(0);
        expect(again.json()).toMatchObject({ changed: false });

        const removed = await runAh(['ai', 'uninstall', 'all', '--json'], { cwd: s.project, env: s.ahEnv, timeoutMs: 300_000 });
        expect(removed.code, removed.stderr).toBe(0);
        expect(removed.json()).toMatchObject({ command: 'ai.uninstall', target: 'all', changed: true });
        const after = await Promise.all(clis.map((cli) => listServers(cli, s.env, s.project)));
        after.forEach((listing, i) => {
          expect(
            listing.servers.map((x) => x.name),
            `${clis[i]}: ${listing.output}`,
          ).not.toContain(NAME);
        });
        // Rules files ah created are gone again.
        for (const file of ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', '.cursor/rules/ah.mdc', '.github/copilot-instructions.md']) {
          expect(existsSync(join(s.project, file)), file).toBe(false);
        }
      }),
    CASE_TIMEOUT,
  );
});
