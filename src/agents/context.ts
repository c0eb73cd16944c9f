/**
 * Where things are for one `ah ai …` run: the project root, the home directory and every agent's
 * own config directory, all read from the environment the user (or a test) gave us, so a private
 * HOME, XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME or COPILOT_HOME is honoured.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { type Env, homeDir } from '../platform/paths.js';
import type { Launch } from './types.js';

export interface AgentContext {
  env: Env;
  cwd: string;
  /** Nearest ancestor of cwd holding `.git`, else cwd. */
  projectRoot: string;
  /** Whether a `.git` was found (status omits project rows outside a project). */
  inProject: boolean;
  home: string;
  platform: NodeJS.Platform;
  /** How a client starts the running ah over stdio. */
  stdio: { script: string; node: string };
  dryRun: boolean;
}

export function findProjectRoot(cwd: string): { root: string; found: boolean } {
  let dir = cwd;
  for (;;) {
    if (existsSync(join(dir, '.git'))) return { root: dir, found: true };
    const parent = dirname(dir);
    if (parent === dir) return { root: cwd, found: false };
    dir = parent;
  }
}

function envDir(env: Env, name: string): string | null {
  const value = env[name];
  return value && isAbsolute(value) ? value : null;
}

/** `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`): Claude Code's user and local MCP servers. */
export function claudeStatePath(ctx: AgentContext): string {
  return join(envDir(ctx.env, 'CLAUDE_CONFIG_DIR') ?? ctx.home, '.claude.json');
}

/** `~/.claude` (or `$CLAUDE_CONFIG_DIR`): Claude Code's user directory (user CLAUDE.md). */
export function claudeUserDir(ctx: AgentContext): string {
  return envDir(ctx.env, 'CLAUDE_CONFIG_DIR') ?? join(ctx.home, '.claude');
}

export function codexHome(ctx: AgentContext): string {
  return envDir(ctx.env, 'CODEX_HOME') ?? join(ctx.home, '.codex');
}

/** Gemini CLI treats GEMINI_CLI_HOME as the home directory: its files live in `<it>/.gemini`. */
export function geminiUserDir(ctx: AgentContext): string {
  return join(envDir(ctx.env, 'GEMINI_CLI_HOME') ?? ctx.home, '.gemini');
}

export function copilotHome(ctx: AgentContext): string {
  return envDir(ctx.env, 'COPILOT_HOME') ?? join(ctx.home, '.copilot');
}

export function opencodeUserDir(ctx: AgentContext): string {
  return join(envDir(ctx.env, 'XDG_CONFIG_HOME') ?? join(ctx.home, '.config'), 'opencode');
}

export function cursorUserDir(ctx: AgentContext): string {
  return join(ctx.home, '.cursor');
}

/**
 * The stdio launch for a client. A POSIX client runs `bin/ah.cjs` itself through its shebang; a
 * Windows client cannot run a script, and a desktop editor (Cursor, VS Code) started from a
 * launcher may not have the shell's PATH that `#!/usr/bin/env node` needs: those get the absolute
 * node first.
 */
export function stdioLaunch(ctx: AgentContext, options: { desktop: boolean }): Launch {
  const args = ['mcp', 'serve'];
  if (ctx.platform === 'win32' || options.desktop)
    return { transport: 'stdio', command: ctx.stdio.node, args: [ctx.stdio.script, ...args] };
  return { transport: 'stdio', command: ctx.stdio.script, args };
}

export function contextFor(options: {
  env: Env;
  cwd: string;
  script: string;
  node: string;
  dryRun: boolean;
  platform?: NodeJS.Platform;
}): AgentContext {
  const { root, found } = findProjectRoot(options.cwd);
  return {
    env: options.env,
    cwd: options.cwd,
    projectRoot: root,
    inProject: found,
    home: homeDir(options.env),
    platform: options.platform ?? process.platform,
    stdio: { script: options.script, node: options.node },
    dryRun: options.dryRun,
  };
}
