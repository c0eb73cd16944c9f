/**
 * GitHub Copilot CLI (it does not read `.vscode/mcp.json`): user scope through `copilot mcp
 * add/remove` (`$COPILOT_HOME/mcp-config.json`, merged by us when the CLI is missing); project scope
 * by merging `.mcp.json`, whose Claude-style entry Copilot CLI reads as well, so the two agents
 * share one `aihelper` entry there. Instructions: AGENTS.md, shared with Codex and OpenCode.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findOnPath } from '../../platform/which.js';
import { afterSeparator, CliSite } from '../cli-site.js';
import { copilotHome } from '../context.js';
import { claudeEntry, copilotCliEntry } from '../formats.js';
import { JsonSite, probeJson } from '../json-site.js';
import { cliOrFallback, type TargetSpec } from '../target.js';

export const copilotCli: TargetSpec = {
  name: 'copilot-cli',
  scopes: ['project', 'user'],
  defaultScope: 'project',
  cli: 'copilot',
  mcpSite(scope, ctx, mode) {
    if (scope === 'project') return new JsonSite(join(ctx.projectRoot, '.mcp.json'), ['mcpServers'], claudeEntry);
    const path = join(copilotHome(ctx), 'mcp-config.json');
    const make = (program: string) =>
      new CliSite({
        name: 'copilot',
        program,
        path,
        probe: async () => {
          const { text: _text, ...probe } = await probeJson(path, ['mcpServers']);
          return probe;
        },
        addArgs: (name, l) =>
          l.transport === 'stdio' ? ['mcp', 'add', name, ...afterSeparator(l)] : ['mcp', 'add', '--transport', 'http', name, l.url],
        removeArgs: (name) => ['mcp', 'remove', name],
      });
    return cliOrFallback(ctx, mode, 'copilot', make, () => new JsonSite(path, ['mcpServers'], copilotCliEntry), '');
  },
  // Copilot CLI's user-level instruction file is not documented for the version tested here.
  rulesFile(scope, ctx) {
    return scope === 'user' ? null : { path: join(ctx.projectRoot, 'AGENTS.md') };
  },
  detect(ctx) {
    return findOnPath('copilot', ctx.env, ctx.platform) !== null || existsSync(copilotHome(ctx));
  },
};
