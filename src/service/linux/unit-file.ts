/**
 * Renders and parses the systemd user unit. Drift compares parsed properties (section.key →
 * value, repeated keys joined), so comments and blank lines never count as drift.
 */
import { type ServiceDefinition, configurationId, endpointOf, managedEnvironment, MAX_RELAUNCHES, serveArgs } from '../definition.js';

export const UNIT_NAME = 'aihelper-managed-mcp.service';
export const OWNER_KEY = 'X-AIHelper-Service-Id';

/** One ExecStart/Environment word: always quoted; `%` (specifiers) and `$` (ExecStart variables) escaped. */
export function quoteWord(value: string, dollar: boolean): string {
  const escaped = value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('%', '%%');
  return `"${dollar ? escaped.replaceAll('$', '$$$$') : escaped}"`;
}

export function renderUnit(definition: ServiceDefinition, stateDir: string): string {
  const delay = definition.restart_delay_sec;
  // The start limit bounds a crash loop: the initial launch plus MAX_RELAUNCHES within a window
  // comfortably longer than the relaunch spacing adds up to.
  const window = delay * (MAX_RELAUNCHES + 2) + 30;
  const exec = [definition.node_path, definition.ah_path, ...serveArgs(definition)].map((w) => quoteWord(w, true)).join(' ');
  const env = managedEnvironment(definition, stateDir).map(([k, v]) => `Environment=${quoteWord(`${k}=${v}`, false)}`);
  return [
    '# Managed by AIHelper (`ah mcp service`). Hand edits are reported as drift by',
    '# `ah mcp service status`; `ah mcp service install` restores this file.',
    '[Unit]',
    `Description=AIHelper managed MCP server on ${endpointOf(definition)}`,
    `${OWNER_KEY}=${definition.service_id}`,
    `X-AIHelper-Configuration-Id=${configurationId(definition)}`,
    `StartLimitIntervalSec=${window}`,
    `StartLimitBurst=${MAX_RELAUNCHES + 1}`,
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${exec}`,
    ...env,
    'Restart=on-failure',
    `RestartSec=${delay}`,
    'TimeoutStopSec=10',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

/** section.key → value; repeated keys (Environment) are joined with newlines in file order. */
export function parseUnit(text: string): Record<string, string> {
  const props: Record<string, string> = {};
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header?.[1]) {
      section = header[1];
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) {
      props[`${section}.<invalid>`] = line;
      continue;
    }
    const key = `${section}.${line.slice(0, eq).trim()}`;
    const value = line.slice(eq + 1).trim();
    props[key] = key in props ? `${props[key]}\n${value}` : value;
  }
  return props;
}
