/** What ah knows about one agent: its scopes, where its MCP entry and its rules file live. */
import { findOnPath } from '../platform/which.js';
import type { AgentContext } from './context.js';
import type { McpSite } from './site.js';
import { cliMissing } from './steps.js';
import type { Scope, TargetName } from './types.js';

export interface RulesFile {
  path: string;
  /** Cursor `.mdc`: the whole file is ours and starts with frontmatter. */
  cursor?: boolean;
}

export interface TargetSpec {
  name: TargetName;
  scopes: readonly Scope[];
  defaultScope: Scope;
  /** The agent's CLI, when it has one we use or report. */
  cli: string | null;
  /** The site for this scope; null when MCP is not supported there. Throws AI_AGENT_CLI_MISSING when needed. */
  mcpSite(scope: Scope, ctx: AgentContext, mode: SiteMode): McpSite | null;
  rulesFile(scope: Scope, ctx: AgentContext): RulesFile | null;
  /** Said with every install at this scope (e.g. Codex has one global list). */
  notes?(scope: Scope): string[];
  /** Whether the agent looks present here (its CLI on PATH or its config location exists): used by `all`. */
  detect(ctx: AgentContext): boolean;
}

/** `change` may throw AI_AGENT_CLI_MISSING; `read` (status) never does. */
export type SiteMode = 'change' | 'read';

/**
 * The CLI site when the agent's CLI is on PATH; otherwise the file fallback (where the file can be
 * merged safely), else AI_AGENT_CLI_MISSING for a change. A read probes the same file either way.
 */
export function cliOrFallback(
  ctx: AgentContext,
  mode: SiteMode,
  name: string,
  make: (program: string) => McpSite,
  fallback: (() => McpSite) | null,
  whyNeeded: string,
): McpSite {
  const program = findOnPath(name, ctx.env, ctx.platform);
  if (program !== null) return make(program);
  if (fallback) return fallback();
  if (mode === 'read') return make(name);
  throw cliMissing(name, whyNeeded);
}
