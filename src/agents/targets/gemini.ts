/**
 * Gemini CLI: user scope through `gemini mcp add/remove -s user` (file merge when the CLI is
 * missing); project scope always by merging `.gemini/settings.json` ourselves, because the CLI in a
 * folder it does not trust rewrites that file with only the new server (gemini-cli#7840).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findOnPath } from '../../platform/which.js';
import { CliSite } from '../cli-site.js';
import { geminiUserDir } from '../context.js';
import { geminiEntry } from '../formats.js';
import { JsonSite, probeJson } from '../json-site.js';
import { cliOrFallback, type TargetSpec } from '../target.js';

export const gemini: TargetSpec = {
  name: 'gemini',
  scopes: ['project', 'user'],
  defaultScope: 'project',
  cli: 'gemini',
  mcpSite(scope, ctx, mode) {
    if (scope === 'project') return new JsonSite(join(ctx.projectRoot, '.gemini', 'settings.json'), ['mcpServers'], geminiEntry);
    const path = join(geminiUserDir(ctx), 'settings.json');
    const make = (program: string) =>
      new CliSite({
        name: 'gemini',
        program,
        path,
        probe: async () => {
          const { text: _text, ...probe } = await probeJson(path, ['mcpServers']);
          return probe;
        },
        // No `--` separator: gemini takes the command and its arguments as positionals.
        addArgs: (name, l) =>
          l.transport === 'stdio'
            ? ['mcp', 'add', '-s', 'user', name, l.command, ...l.args]
            : ['mcp', 'add', '-s', 'user', '-t', 'http', name, l.url],
        removeArgs: (name) => ['mcp', 'remove', '-s', 'user', name],
      });
    return cliOrFallback(ctx, mode, 'gemini', make, () => new JsonSite(path, ['mcpServers'], geminiEntry), '');
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
