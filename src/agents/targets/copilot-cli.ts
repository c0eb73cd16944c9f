/**
 * GitHub Copilot CLI (it does not read `.vscode/mcp.json`). User scope: `$COPILOT_HOME/mcp-config.json`
 * in the shape `copilot mcp add` writes, merged by ah because that command re-formats every other
 * entry in the file. Project scope: `.mcp.json`, whose Claude-style entry Copilot CLI reads as well,
 * so the two agents share one `aihelper` entry there. Instructions: AGENTS.md (shared with Codex
 * and OpenCode).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findOnPath } from '../../platform/which.js';
import { copilotHome } from '../context.js';
import { claudeEntry, copilotCliEntry } from '../formats.js';
import { JsonSite } from '../json-site.js';
import type { TargetSpec } from '../target.js';

export const copilotCli: TargetSpec = {
  name: 'copilot-cli',
  scopes: ['project', 'user'],
  defaultScope: 'project',
  cli: 'copilot',
  mcpSite(scope, ctx) {
    if (scope === 'project') return new JsonSite(join(ctx.projectRoot, '.mcp.json'), ['mcpServers'], claudeEntry);
    return new JsonSite(join(copilotHome(ctx), 'mcp-config.json'), ['mcpServers'], copilotCliEntry);
  },
  // Copilot CLI's user-level instruction file is not documented for the version tested here.
  rulesFile(scope, ctx) {
    return scope === 'user' ? null : { path: join(ctx.projectRoot, 'AGENTS.md') };
  },
  detect(ctx) {
    return findOnPath('copilot', ctx.env, ctx.platform) !== null || existsSync(copilotHome(ctx));
  },
};
