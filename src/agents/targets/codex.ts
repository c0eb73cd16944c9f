/**
 * Codex: `$CODEX_HOME/config.toml` (read with a real TOML parser). ah edits our own
 * `[mcp_servers.aihelper]` table as text (toml-table.ts), because `codex mcp add/remove` re-writes
 * the server tables and drops the comments in them; an entry written in another TOML form is left
 * to the Codex CLI. Codex reads a project `.codex/config.toml` only in trusted projects and its CLI
 * never writes one, so project scope registers in the global list and says so.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findOnPath } from '../../platform/which.js';
import { afterSeparator, CliSite } from '../cli-site.js';
import { codexHome } from '../context.js';
import { probeCodexToml } from './codex-probe.js';
import { cliOrFallback, type TargetSpec } from '../target.js';
import { TomlSite } from '../toml-site.js';

export const codex: TargetSpec = {
  name: 'codex',
  scopes: ['project', 'user'],
  defaultScope: 'project',
  cli: 'codex',
  mcpSite(_scope, ctx, mode) {
    const home = codexHome(ctx);
    const path = join(home, 'config.toml');
    const cli = (program: string) =>
      new CliSite({
        name: 'codex',
        program,
        path,
        probe: () => probeCodexToml(path),
        addArgs: (name, l) => (l.transport === 'stdio' ? ['mcp', 'add', name, ...afterSeparator(l)] : ['mcp', 'add', name, '--url', l.url]),
        removeArgs: (name) => ['mcp', 'remove', name],
        ensureDirs: [home],
      });
    const fallback = () =>
      cliOrFallback(ctx, mode, 'codex', cli, null, `the aihelper entry in ${path} is not a plain [mcp_servers.aihelper] table`);
    return new TomlSite(path, fallback);
  },
  rulesFile(scope, ctx) {
    return { path: scope === 'user' ? join(codexHome(ctx), 'AGENTS.md') : join(ctx.projectRoot, 'AGENTS.md') };
  },
  notes(scope) {
    return scope === 'project'
      ? [
          'codex keeps one global server list: aihelper was registered for the user (codex reads a project .codex/config.toml only in trusted projects)',
        ]
      : [];
  },
  detect(ctx) {
    return findOnPath('codex', ctx.env, ctx.platform) !== null || existsSync(codexHome(ctx));
  },
};
