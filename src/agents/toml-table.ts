/**
 * Edits Codex's config.toml as text, one server table at a time, so every other line (comments
 * included) stays byte for byte; `codex mcp add/remove` re-serialises the tables it touches and
 * drops comments inside them. Only the standard form `[mcp_servers.<name>]` (plus its
 * `[mcp_servers.<name>.…]` sub-tables) is edited here; any other form of our entry (inline or
 * dotted keys) returns null and the caller falls back to the Codex CLI.
 */
import { parse as parseToml } from 'smol-toml';
import type { Launch } from './types.js';

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;

/** The dotted key path of a header line, with quoted parts unquoted; null when not a header. */
function headerPath(line: string): string[] | null {
  const m = HEADER.exec(line);
  if (!m) return null;
  const parts: string[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(?:\.|$)/y;
  const body = m[1] as string;
  re.lastIndex = 0;
  while (re.lastIndex < body.length) {
    const part = re.exec(body);
    if (!part) return null;
    parts.push(part[1] !== undefined ? (JSON.parse(`"${part[1]}"`) as string) : (part[2] ?? part[3] ?? ''));
  }
  return parts;
}

function tomlString(value: string): string {
  return JSON.stringify(value);
}

function tomlKey(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : tomlString(name);
}

export function tomlTable(name: string, launch: Launch, eol: string): string {
  const lines = [`[mcp_servers.${tomlKey(name)}]`];
  if (launch.transport === 'http') lines.push(`url = ${tomlString(launch.url)}`);
  else lines.push(`command = ${tomlString(launch.command)}`, `args = [${launch.args.map(tomlString).join(', ')}]`);
  return lines.join(eol) + eol;
}

/** Line ranges [start, end) of the table `[mcp_servers.<name>]` and its sub-tables. */
function tableLines(lines: readonly string[], name: string): { start: number; end: number } | null {
  let start = -1;
  for (let i = 0; i < lines.length; i++) {
    const path = headerPath(lines[i] as string);
    if (path === null) continue;
    const ours = path.length >= 2 && path[0] === 'mcp_servers' && path[1] === name;
    if (start === -1 && ours && path.length === 2) start = i;
    else if (start !== -1 && !ours) return { start, end: i };
  }
  return start === -1 ? null : { start, end: lines.length };
}

function serverOf(text: string, name: string): unknown {
  const servers = (parseToml(text) as Record<string, any>).mcp_servers as Record<string, unknown> | undefined;
  return servers?.[name];
}

/**
 * `text` with the table for `name` set to `launch` (undefined: removed). Null when our entry is
 * not in the standard table form, or when the edit would not read back as intended.
 */
export function editServerTable(text: string, name: string, launch: Launch | undefined): string | null {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const range = tableLines(lines, name);
  const present = serverOf(text, name) !== undefined;
  if (present && range === null) return null;
  let kept = lines;
  if (range) {
    // Blank lines before the next table stay with it; the ones that separated ours from the
    // previous table go with ours.
    let end = range.end;
    while (end > range.start + 1 && (lines[end - 1] as string).trim() === '') end--;
    let start = range.start;
    while (start > 0 && (lines[start - 1] as string).trim() === '') start--;
    kept = [...lines.slice(0, start), ...lines.slice(end)];
    if (start === 0) while (kept.length > 0 && (kept[0] as string).trim() === '') kept.shift();
  }
  let next = kept.join(eol);
  if (launch !== undefined) {
    const body = next.replace(/(\r?\n)*$/, '');
    next = `${body === '' ? '' : `${body}${eol}${eol}`}${tomlTable(name, launch, eol)}`;
  }
  try {
    const after = serverOf(next, name) as Record<string, unknown> | undefined;
    if (launch === undefined ? after !== undefined : after === undefined) return null;
  } catch {
    return null;
  }
  return next;
}
