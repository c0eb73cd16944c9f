/** Cursor: no CLI; `.cursor/mcp.json` / `~/.cursor/mcp.json` merged by us, rules in `.cursor/rules/ah.mdc`. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cursorUserDir } from '../context.js';
import { cursorEntry } from '../formats.js';
import { JsonSite } from '../json-site.js';
import type { TargetSpec } from '../target.js';

export const cursor: TargetSpec = {
  name: 'cursor',
  scopes: ['project', 'user'],
  defaultScope: 'project',
  cli: null,
  mcpSite(scope, ctx) {
    const dir = scope === 'user' ? cursorUserDir(ctx) : join(ctx.projectRoot, '.cursor');
    return new JsonSite(join(dir, 'mcp.json'), ['mcpServers'], cursorEntry);
  },
  // Cursor's user rules live in its settings database, not in a file we can edit.
  rulesFile(scope, ctx) {
    return scope === 'user' ? null : { path: join(ctx.projectRoot, '.cursor', 'rules', 'ah.mdc'), cursor: true };
  },
  detect(ctx) {
    return existsSync(cursorUserDir(ctx)) || existsSync(join(ctx.projectRoot, '.cursor'));
  },
};
