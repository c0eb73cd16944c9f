/**
 * Gemini CLI: `.gemini/settings.json` (project) and `$GEMINI_CLI_HOME/.gemini/settings.json` (user)
 * are merged by ah at both scopes. `gemini mcp add` is destructive here: in a folder it does not
 * trust it rewrites the project file with only the new server (gemini-cli#7840), and in the user
 * file it re-formats every other entry. Its CLI is only reported by status.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findOnPath } from '../../platform/which.js';
import { geminiUserDir } from '../context.js';
import { geminiEntry } from '../formats.js';
import { JsonSite } from '../json-site.js';
import type { TargetSpec } from '../target.js';

export const gemini: TargetSpec = {
  name: 'gemini',
  scopes: ['project', 'user'],
  defaultScope: 'project',
  cli: 'gemini',
  mcpSite(scope, ctx) {
    const dir = scope === 'user' ? geminiUserDir(ctx) : join(ctx.projectRoot, '.gemini');
    return new JsonSite(join(dir, 'settings.json'), ['mcpServers'], geminiEntry);
  },
  rulesFile(scope, ctx) {
    return { path: scope === 'user' ? join(geminiUserDir(ctx), 'GEMINI.md') : join(ctx.projectRoot, 'GEMINI.md') };
  },
  detect(ctx) {
    return (
      findOnPath('gemini', ctx.env, ctx.platform) !== null || existsSync(geminiUserDir(ctx)) || existsSync(join(ctx.projectRoot, '.gemini'))
    );
  },
};
