/** GitHub Copilot in VS Code: `.vscode/mcp.json` (key `servers`) and `.github/copilot-instructions.md`, project only. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { vscodeEntry } from '../formats.js';
import { JsonSite } from '../json-site.js';
import type { TargetSpec } from '../target.js';

export const copilot: TargetSpec = {
  name: 'copilot',
  scopes: ['project'],
  defaultScope: 'project',
  cli: null,
  mcpSite(_scope, ctx) {
    return new JsonSite(join(ctx.projectRoot, '.vscode', 'mcp.json'), ['servers'], vscodeEntry);
  },
  rulesFile(_scope, ctx) {
    return { path: join(ctx.projectRoot, '.github', 'copilot-instructions.md') };
  },
  detect(ctx) {
    return existsSync(join(ctx.projectRoot, '.vscode')) || existsSync(join(ctx.projectRoot, '.github', 'copilot-instructions.md'));
  },
};
