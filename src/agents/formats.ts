/**
 * The entry each client expects for a server, and the reverse: reading any client's entry back
 * into a Launch so a probe can compare what is registered with what we would register.
 */
import type { Launch } from './types.js';

type Entry = Record<string, unknown>;

export type EntryFormat = (launch: Launch) => Entry;

/** Claude Code (`.mcp.json`, `~/.claude.json`); Copilot CLI also reads this shape in `.mcp.json`. */
export const claudeEntry: EntryFormat = (l) =>
  l.transport === 'stdio' ? { type: 'stdio', command: l.command, args: l.args, env: {} } : { type: 'http', url: l.url };

/** Gemini CLI: `httpUrl` is its documented key for Streamable HTTP (a bare `url` once meant SSE). */
export const geminiEntry: EntryFormat = (l) => (l.transport === 'stdio' ? { command: l.command, args: l.args } : { httpUrl: l.url });

export const cursorEntry: EntryFormat = (l) => (l.transport === 'stdio' ? { command: l.command, args: l.args } : { url: l.url });

/** VS Code `mcp.json` (`servers`). */
export const vscodeEntry: EntryFormat = (l) =>
  l.transport === 'stdio' ? { type: 'stdio', command: l.command, args: l.args } : { type: 'http', url: l.url };

/** What `copilot mcp add` itself writes to `mcp-config.json`. */
export const copilotCliEntry: EntryFormat = (l) =>
  l.transport === 'stdio' ? { tools: ['*'], type: 'local', command: l.command, args: l.args } : { tools: ['*'], type: 'http', url: l.url };

export const opencodeEntry: EntryFormat = (l) =>
  l.transport === 'stdio'
    ? { type: 'local', command: [l.command, ...l.args], enabled: true }
    : { type: 'remote', url: l.url, enabled: true };

function strings(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : null;
}

/**
 * Any client's entry as a Launch; null when it is not something we can compare (then a probe calls
 * it different and install replaces it).
 */
export function readLaunch(value: unknown): Launch | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const e = value as Entry;
  const url = typeof e.httpUrl === 'string' ? e.httpUrl : typeof e.url === 'string' ? e.url : null;
  if (url !== null) return { transport: 'http', url };
  const commandList = strings(e.command);
  if (commandList && commandList.length > 0) {
    return { transport: 'stdio', command: commandList[0] as string, args: commandList.slice(1) };
  }
  if (typeof e.command === 'string') return { transport: 'stdio', command: e.command, args: strings(e.args) ?? [] };
  return null;
}

export function sameLaunch(a: Launch | null, b: Launch | null): boolean {
  if (a === null || b === null) return false;
  if (a.transport === 'http' || b.transport === 'http')
    return a.transport === b.transport && (a as { url: string }).url === (b as { url: string }).url;
  return a.command === b.command && a.args.length === b.args.length && a.args.every((x, i) => x === b.args[i]);
}

/** One line for people: `stdio /path/ah.cjs mcp serve` or `http http://127.0.0.1:8787/mcp`. */
export function describeLaunch(l: Launch): string {
  return l.transport === 'stdio' ? `stdio ${[l.command, ...l.args].join(' ')}` : `http ${l.url}`;
}
