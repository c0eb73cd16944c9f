/**
 * Claude Code: `claude mcp add/remove` (its `~/.claude.json` is rewritten by running sessions, so
 * the CLI is the safe writer). Without the CLI, project scope falls back to merging `.mcp.json`
 * (plain JSON, read by Claude and by Copilot CLI); local and user scope need the CLI.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findOnPath } from '../../platform/which.js';
import { afterSeparator, CliSite } from '../cli-site.js';
import { type AgentContext, claudeStatePath, claudeUserDir } from '../context.js';
import { claudeEntry, readLaunch } from '../formats.js';
import { parseConfig, valueAt } from '../jsonc.js';
import { JsonSite, probeJson, readText } from '../json-site.js';
import type { Probe } from '../site.js';
import { cliOrFallback, type TargetSpec } from '../target.js';
import { LEGACY_NAME, SERVER_NAME, type Scope } from '../types.js';

/** `projects["<root>"].mcpServers`, matching the root with either path separator. */
async function probeLocal(path: string, root: string): Promise<Probe> {
  const text = await readText(path);
  if (text === null) return { present: false, current: null, legacy: false };
  const config = parseConfig(text, path);
  const projects = valueAt(config, ['projects']);
  const key = [root, root.replaceAll('\\', '/')].find((k) => valueAt(projects, [k]) !== undefined);
  const servers = key === undefined ? undefined : valueAt(projects, [key, 'mcpServers']);
  const entry = valueAt(servers, [SERVER_NAME]);
  return {
    present: entry !== undefined,
    current: entry === undefined ? null : readLaunch(entry),
    legacy: valueAt(servers, [LEGACY_NAME]) !== undefined,
  };
}

function configPath(scope: Scope, ctx: AgentContext): string {
  return scope === 'project' ? join(ctx.projectRoot, '.mcp.json') : claudeStatePath(ctx);
}

export const claude: TargetSpec = {
  name: 'claude',
  scopes: ['local', 'project', 'user'],
  defaultScope: 'local',
  cli: 'claude',
  mcpSite(scope, ctx, mode) {
    const path = configPath(scope, ctx);
    const make = (program: string) =>
      new CliSite({
        name: 'claude',
        program,
        path,
        probe: async () => {
          if (scope === 'local') return probeLocal(path, ctx.projectRoot);
          const { text: _text, ...probe } = await probeJson(path, ['mcpServers']);
          return probe;
        },
        addArgs: (name, l) =>
          l.transport === 'stdio'
            ? ['mcp', 'add', '-s', scope, name, ...afterSeparator(l)]
            : ['mcp', 'add', '-s', scope, '-t', 'http', name, l.url],
        removeArgs: (name) => ['mcp', 'remove', name, '-s', scope],
      });
    const fallback = scope === 'project' ? () => new JsonSite(path, ['mcpServers'], claudeEntry) : null;
    return cliOrFallback(
      ctx,
      mode,
      'claude',
      make,
      fallback,
      `Claude Code's ${scope} servers live in ${path}, which its running sessions rewrite`,
    );
  },
  rulesFile(scope, ctx) {
    return { path: scope === 'user' ? join(claudeUserDir(ctx), 'CLAUDE.md') : join(ctx.projectRoot, 'CLAUDE.md') };
  },
  detect(ctx) {
    return findOnPath('claude', ctx.env, ctx.platform) !== null || existsSync(claudeStatePath(ctx)) || existsSync(claudeUserDir(ctx));
  },
};
