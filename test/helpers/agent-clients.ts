/**
 * What each real agent client itself says about its MCP servers: runs the client's own listing
 * command in a private HOME and project directory and parses it into one shape. Claude Code,
 * Gemini CLI and OpenCode start every server to list it; Codex's `mcp list` reads config only, so
 * its servers are also started through `codex app-server`; Copilot CLI's listing reads config only.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { type AgentCli, CLIENT_BIN, runClient } from './clients.js';

export type ListedStatus = 'connected' | 'failed' | 'pending' | 'disabled' | 'configured';

export interface ListedServer {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  command?: string;
  args?: string[];
  url?: string;
  /** configured: the client read the entry but did not start it (Copilot CLI). */
  status: ListedStatus;
  /** Where the client says the entry lives, when it says so (Claude `get`, Copilot CLI). */
  scope?: string;
}

export interface Listing {
  servers: ListedServer[];
  /** The client's own words, for failure messages. */
  output: string;
}

/**
 * A listing starts every configured server; on a loaded 2-core machine OpenCode alone has taken
 * over 90 s, so listings get more time than runClient's default.
 */
export const LIST_TIMEOUT = 300_000;

/** Splits "cmd arg1 arg2" as the clients print it (test paths hold no spaces). */
function splitCommand(line: string): { command: string; args: string[] } {
  const [command = '', ...args] = line.trim().split(/\s+/);
  return { command, args };
}

function claudeStatus(text: string): ListedStatus {
  if (text.includes('✔ Connected')) return 'connected';
  if (text.includes('Pending approval')) return 'pending';
  if (text.includes('Disabled')) return 'disabled';
  return 'failed';
}

/** `claude mcp list`: "name: cmd args - ✔ Connected", "name: URL (HTTP) - ✘ Failed to connect …". */
export function parseClaudeList(output: string): ListedServer[] {
  const servers: ListedServer[] = [];
  for (const line of output.split('\n')) {
    const m = /^([^\s:]+): (.*?) - ([✔✘⏸!⚠].*)$/u.exec(line.trim());
    if (!m) continue;
    const [, name = '', detail = '', state = ''] = m;
    const remote = /^(\S+) \((HTTP|SSE)\)$/.exec(detail);
    servers.push(
      remote
        ? { name, transport: remote[2] === 'SSE' ? 'sse' : 'http', url: remote[1], status: claudeStatus(state) }
        : { name, transport: 'stdio', ...splitCommand(detail), status: claudeStatus(state) },
    );
  }
  return servers;
}

/** `claude mcp get NAME`: the one listing that names the scope; null when Claude has no such server. */
export function parseClaudeGet(name: string, output: string): ListedServer | null {
  const field = (key: string) => new RegExp(`^\\s+${key}: ?(.*)$`, 'm').exec(output)?.[1]?.trim();
  const type = field('Type');
  if (!output.includes(`${name}:`) || type === undefined) return null;
  const scopeText = field('Scope') ?? '';
  const scope = /^Local/.test(scopeText) ? 'local' : /^Project/.test(scopeText) ? 'project' : /^User/.test(scopeText) ? 'user' : scopeText;
  const status = claudeStatus(field('Status') ?? '');
  if (type === 'stdio') {
    const args = field('Args') ?? '';
    return { name, transport: 'stdio', command: field('Command') ?? '', args: args === '' ? [] : args.split(/\s+/), status, scope };
  }
  return { name, transport: type === 'sse' ? 'sse' : 'http', url: field('URL') ?? '', status, scope };
}

/** `gemini mcp list`: "✓ name: cmd args (stdio) - Connected", "○ name: URL (http) - Disabled". */
export function parseGeminiList(output: string): ListedServer[] {
  const servers: ListedServer[] = [];
  for (const line of output.split('\n')) {
    const m = /^\S+ ([^\s:]+): (.*) \((stdio|http|sse)\) - (.+)$/u.exec(line.trim());
    if (!m) continue;
    const [, name = '', detail = '', transport = 'stdio', state = ''] = m;
    const status: ListedStatus = state === 'Connected' ? 'connected' : state === 'Disabled' || state === 'Blocked' ? 'disabled' : 'failed';
    servers.push(
      transport === 'stdio'
        ? { name, transport: 'stdio', ...splitCommand(detail), status }
        : { name, transport: transport as 'http' | 'sse', url: detail.trim(), status },
    );
  }
  return servers;
}

/**
 * `opencode mcp list` prints a block per server: "●  ✓ name connected", an optional error line,
 * then the command or URL, all prefixed with box-drawing characters.
 */
export function parseOpencodeList(output: string): ListedServer[] {
  const servers: ListedServer[] = [];
  const lines = stripVTControlCharacters(output).split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const head = /^●\s+\S+\s+(\S+)\s+(.+?)\s*$/u.exec(lines[i] ?? '');
    if (!head) continue;
    const [, name = '', state = ''] = head;
    const detail: string[] = [];
    for (let j = i + 1; j < lines.length; j += 1) {
      const body = /^│\s+(\S.*?)\s*$/u.exec(lines[j] ?? '');
      if (!body) break;
      detail.push(body[1] ?? '');
    }
    const last = detail.at(-1) ?? '';
    const status: ListedStatus = state === 'connected' ? 'connected' : state === 'disabled' ? 'disabled' : 'failed';
    servers.push(
      /^https?:\/\//.test(last)
        ? { name, transport: 'http', url: last, status }
        : { name, transport: 'stdio', ...splitCommand(last), status },
    );
  }
  return servers;
}

interface CodexEntry {
  name: string;
  enabled: boolean;
  transport: { type: string; command?: string; args?: string[] | null; url?: string };
}

/** `codex mcp list --json`: the configured servers (Codex does not start them for this). */
export function parseCodexList(stdout: string): ListedServer[] {
  const entries = JSON.parse(stdout) as CodexEntry[];
  return entries.map((e) =>
    e.transport.type === 'stdio'
      ? {
          name: e.name,
          transport: 'stdio',
          command: e.transport.command ?? '',
          args: e.transport.args ?? [],
          status: e.enabled ? 'configured' : 'disabled',
        }
      : { name: e.name, transport: 'http', url: e.transport.url ?? '', status: e.enabled ? 'configured' : 'disabled' },
  );
}

interface CopilotEntry {
  type?: string;
  command?: string;
  args?: string[];
  url?: string;
  source?: string;
  enabled?: boolean;
}

/** `copilot mcp list --json`: {"mcpServers": {name: {type, command, args | url, source, enabled}}}. */
export function parseCopilotList(stdout: string): ListedServer[] {
  const { mcpServers } = JSON.parse(stdout) as { mcpServers: Record<string, CopilotEntry> };
  return Object.entries(mcpServers).map(([name, e]) => {
    const status: ListedStatus = e.enabled === false ? 'disabled' : 'configured';
    const scope = e.source;
    if (e.type === 'http' || e.type === 'sse') return { name, transport: e.type, url: e.url ?? '', status, scope };
    return { name, transport: 'stdio', command: e.command ?? '', args: e.args ?? [], status, scope };
  });
}

/**
 * Which configured servers Codex can really start: `codex app-server` speaks JSON-RPC lines on
 * stdio, and `mcpServerStatus/list` starts every server and reports its tools or its startup error.
 */
export function codexServerHealth(env: NodeJS.ProcessEnv, cwd: string, timeoutMs = 90_000): Promise<Map<string, boolean>> {
  return new Promise((done, reject) => {
    const child = spawn(join(CLIENT_BIN, 'codex'), ['app-server', '--disable', 'plugins', '--disable', 'apps'], {
      env,
      cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let buffer = '';
    let stderr = '';
    let settled = false;
    const finish = (error: Error | null, result?: Map<string, boolean>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdin.end();
      if (child.exitCode === null) child.kill('SIGKILL');
      if (error) reject(error);
      else done(result ?? new Map());
    };
    const timer = setTimeout(
      () => finish(new Error(`codex app-server gave no server status in ${timeoutMs} ms: ${stderr.slice(-500)}`)),
      timeoutMs,
    );
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.stdout.on('data', (c: Buffer) => {
      buffer += c.toString();
      let nl = buffer.indexOf('\n');
      while (nl !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
        const message = JSON.parse(line) as {
          id?: number;
          result?: { data: { name: string; serverInfo: unknown; toolsError: unknown }[] };
        };
        if (message.id !== 2) continue;
        const health = new Map((message.result?.data ?? []).map((s) => [s.name, s.serverInfo !== null && s.toolsError === null] as const));
        finish(null, health);
      }
    });
    child.on('error', (error) => finish(error));
    child.on('close', (code) => finish(new Error(`codex app-server exited ${code} before answering: ${stderr.slice(-500)}`)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientInfo: { name: 'ah-tests', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'mcpServerStatus/list', params: { detail: 'full' } });
  });
}

/** Runs `cli`'s own listing in `cwd` with `env` (a clientHome env) and parses it. */
export async function listServers(cli: AgentCli, env: NodeJS.ProcessEnv, cwd: string): Promise<Listing> {
  switch (cli) {
    case 'claude': {
      const run = await runClient('claude', ['mcp', 'list'], env, cwd, LIST_TIMEOUT);
      return { servers: parseClaudeList(run.output), output: run.output };
    }
    case 'gemini': {
      const run = await runClient('gemini', ['mcp', 'list'], env, cwd, LIST_TIMEOUT);
      return { servers: parseGeminiList(run.output), output: run.output };
    }
    case 'opencode': {
      const run = await runClient('opencode', ['mcp', 'list'], env, cwd, LIST_TIMEOUT);
      return { servers: parseOpencodeList(run.output), output: run.output };
    }
    case 'copilot': {
      const run = await runClient('copilot', ['mcp', 'list', '--json'], env, cwd, LIST_TIMEOUT);
      return { servers: parseCopilotList(run.stdout), output: run.output };
    }
    case 'codex': {
      const run = await runClient('codex', ['mcp', 'list', '--json'], env, cwd, LIST_TIMEOUT);
      const configured = parseCodexList(run.stdout);
      if (configured.length === 0) return { servers: configured, output: run.output };
      const health = await codexServerHealth(env, cwd, LIST_TIMEOUT);
      const servers = configured.map(
        (s): ListedServer => (s.status === 'configured' ? { ...s, status: health.get(s.name) ? 'connected' : 'failed' } : s),
      );
      return { servers, output: `${run.output}\napp-server: ${JSON.stringify([...health])}` };
    }
  }
}

/**
 * listServers, run again (at most three times, 2 s apart) while one of `names` failed to start: Gemini gives a
 * server 5 s to connect in `mcp list`, which a loaded 2-core machine running several clients at
 * once can exceed. A server that never starts still ends up `failed`.
 */
export async function listServersSettled(cli: AgentCli, env: NodeJS.ProcessEnv, cwd: string, names: string[]): Promise<Listing> {
  let listing = await listServers(cli, env, cwd);
  const failed = () => listing.servers.some((x) => names.includes(x.name) && x.status === 'failed');
  for (let retry = 0; retry < 3 && failed(); retry += 1) {
    await new Promise((r) => setTimeout(r, 2000));
    listing = await listServers(cli, env, cwd);
  }
  return listing;
}

/** `claude mcp get NAME` (starts the server): the entry with its scope, or null when absent. */
export async function claudeGet(
  name: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ server: ListedServer | null; output: string }> {
  const run = await runClient('claude', ['mcp', 'get', name], env, cwd, LIST_TIMEOUT);
  return { server: run.code === 0 ? parseClaudeGet(name, run.output) : null, output: run.output };
}

/**
 * JSON with comments and trailing commas, as VS Code, Cursor and OpenCode read it: one pass drops
 * comments and any comma whose next token closes an object or array; strings are copied as they are.
 */
export function parseJsonc(text: string): unknown {
  /** Index of the next token after position i (whitespace and comments skipped). */
  const skipTrivia = (from: number): number => {
    let i = from;
    for (;;) {
      if (/\s/.test(text[i] ?? '')) i += 1;
      else if (text.startsWith('//', i)) i = text.includes('\n', i) ? text.indexOf('\n', i) : text.length;
      else if (text.startsWith('/*', i)) i = text.includes('*/', i + 2) ? text.indexOf('*/', i + 2) + 2 : text.length;
      else return i;
    }
  };
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (text.startsWith('//', i) || text.startsWith('/*', i)) {
      i = skipTrivia(i);
    } else if (c === ',' && (text[skipTrivia(i + 1)] === '}' || text[skipTrivia(i + 1)] === ']')) {
      i += 1;
    } else {
      out += c;
      i += 1;
    }
  }
  return JSON.parse(out);
}
