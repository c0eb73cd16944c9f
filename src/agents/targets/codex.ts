/**
 * Codex: `codex mcp add/remove` writes `$CODEX_HOME/config.toml` (read here with a real TOML parser).
 * Codex reads a project `.codex/config.toml` only in trusted projects and its CLI never writes one,
 * so project scope registers in the global list and says so. Without the CLI nothing is changed:
 * rewriting TOML ourselves would drop the user's comments.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { AhError } from '../../errors.js';
import { findOnPath } from '../../platform/which.js';
import { afterSeparator, CliSite } from '../cli-site.js';
import { codexHome } from '../context.js';
import { readLaunch } from '../formats.js';
import { valueAt } from '../jsonc.js';
import { readText } from '../json-site.js';
import type { Probe } from '../site.js';
import { cliOrFallback, type TargetSpec } from '../target.js';
import { LEGACY_NAME, SERVER_NAME } from '../types.js';

export async function probeCodexToml(path: string): Promise<Probe> {
  const text = await readText(path);
  if (text === null) return { present: false, current: null, legacy: false };
  let config: unknown;
  try {
    config = parseToml(text);
  } catch (error) {
    throw new AhError({
      code: 'AI_CONFIG_UNPARSABLE',
      message: `${path} cannot be parsed, so it was left untouched`,
      cause: (error as Error).message.split('\n')[0],
      hint: 'Fix the file by hand (or move it aside) and run the command again.',
      operation: 'ai.config',
    });
  }
  const entry = valueAt(config, ['mcp_servers', SERVER_NAME]);
  return {
    present: entry !== undefined,
    current: entry === undefined ? null : readLaunch(entry),
    legacy: valueAt(config, ['mcp_servers', LEGACY_NAME]) !== undefined,
  };
}

export const codex: TargetSpec = {
  name: 'codex',
  scopes: ['project', 'user'],
  defaultScope: 'project',
  cli: 'codex',
  mcpSite(_scope, ctx, mode) {
    const home = codexHome(ctx);
    const path = join(home, 'config.toml');
    const make = (program: string) =>
      new CliSite({
        name: 'codex',
        program,
        path,
        probe: () => probeCodexToml(path),
        addArgs: (name, l) => (l.transport === 'stdio' ? ['mcp', 'add', name, ...afterSeparator(l)] : ['mcp', 'add', name, '--url', l.url]),
        removeArgs: (name) => ['mcp', 'remove', name],
        ensureDirs: [home],
      });
    return cliOrFallback(
      ctx,
      mode,
      'codex',
      make,
      null,
      `Codex's servers live in ${path}; only its CLI rewrites that TOML without losing comments`,
    );
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
