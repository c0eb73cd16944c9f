/** The contract every command implements once; the CLI and MCP surfaces are derived from it. */
import type { Effects } from './effects.js';
import type { VaultStore } from './vault.js';
import type { JsonSchema, TSchema } from './schema.js';

export interface Example {
  description: string;
  arguments: Record<string, unknown>;
}

export interface CredentialSlot {
  name: string;
  acceptedKinds: readonly string[];
  required: boolean;
  description: string;
}

export interface CliHints {
  /** Input fields taken from positional arguments, in order. */
  positionals?: readonly string[];
  /** A string-array field that takes every remaining argument verbatim (after an optional `--`). */
  rest?: string;
  /** Short flag letter → input field, e.g. `{ n: 'number_lines' }`. */
  short?: Readonly<Record<string, string>>;
  /** Extra long flag names (without `--`) → input field, e.g. `{ glob: 'globs', ref: 'reference' }`. */
  aliases?: Readonly<Record<string, string>>;
}

/** A line or item notice attached to a successful result (shown by the CLI, sent in MCP meta). */
export interface Notice {
  code: string;
  message: string;
}

/** Host facilities a handler may need beyond the file system (catalog state, plugin settings). */
export interface HostApi {
  /** The current catalog snapshot (read-only view). */
  catalog(): CatalogView;
  /** Persists and publishes a new set of disabled domains; returns the stored list. */
  setDisabledDomains(update: (current: readonly string[]) => string[]): Promise<{ disabled: string[]; changed: boolean }>;
  /** Absolute path of plugins.json. */
  readonly pluginSettingsPath: string;
  /** The secrets vault of this configuration directory (opened lazily; errors carry vault codes). */
  readonly vault: VaultStore;
}

export interface DomainInfo {
  domain: string;
  pluginName: string;
  description: string;
  source: 'builtin' | 'external';
  host: boolean;
  requiredTools: readonly { name: string; check_args: readonly string[]; reason: string }[];
  notes: readonly string[];
}

export interface CatalogView {
  readonly revision: number;
  readonly domains: readonly DomainInfo[];
  readonly disabledDomains: readonly string[];
  /** Every registered command, enabled or not. */
  readonly all: readonly CommandDescriptor[];
  isEnabled(domain: string): boolean;
}

export interface CommandContext {
  /** Absolute working directory for this call. */
  cwd: string;
  /** Item/line cap, or null for none. */
  limit: number | null;
  /** Fires on cancellation or timeout; handlers must stop promptly. */
  signal: AbortSignal;
  /** Epoch milliseconds by which the call must finish. */
  deadline: number;
  /** Environment for child processes (handlers never read process.env). */
  env: Readonly<Record<string, string | undefined>>;
  /** Resolved credential values by slot (only for commands that declare slots). */
  credentials: Readonly<Record<string, { id: string; kind: string; values: Readonly<Record<string, string>> }>>;
  /** Non-fatal notices to return with the result. */
  notice(notice: Notice): void;
  /** Progress for long calls (free text; surfaces rate-limit it). */
  progress(message: string): void;
  host: HostApi;
  /** 'cli' or 'mcp'. */
  transport: 'cli' | 'mcp';
  /** The surface's id for this call (MCP execution id), for correlating log records. */
  requestId?: string;
}

export interface CommandDescriptor<I = any, O = any> {
  /** `domain.verb[.sub]`, lowercase `[a-z0-9-]` segments. */
  id: string;
  title: string;
  description: string;
  inputSchema: TSchema | JsonSchema;
  outputSchema: TSchema | JsonSchema;
  effects: Effects;
  examples: readonly Example[];
  credentialSlots?: readonly CredentialSlot[];
  cli?: CliHints;
  /**
   * Whether this call works without an explicit cwd (HTTP transport rule). Default: needs one.
   * A function lets a command decide from its arguments (e.g. a relative file input needs cwd).
   */
  stateless?: boolean | ((input: Record<string, unknown>) => boolean);
  /** Human rendering for the CLI text mode; JSON otherwise. */
  render?(output: O): string;
  /**
   * Fields of a successful output worth keeping in the invocation log's `outcome` (the log keeps
   * no outputs otherwise). Keep it small and free of user data.
   */
  logOutcome?(output: O): Record<string, unknown>;
  run(input: I, ctx: CommandContext): Promise<O>;
}

/** Identity helper giving descriptors full type inference. */
export function defineCommand<I, O>(descriptor: CommandDescriptor<I, O>): CommandDescriptor<I, O> {
  return descriptor;
}

export function domainOf(id: string): string {
  const dot = id.indexOf('.');
  return dot === -1 ? id : id.slice(0, dot);
}

/** A domain: a named group of commands (built-in, or an external plugin module: same contract). */
export interface DomainModule {
  domain: string;
  pluginName: string;
  description: string;
  /** Host domains (ai, plugins, mcp, secrets) cannot be disabled. */
  host?: boolean;
  /** Where the module came from; built-in unless the loader found it on disk. */
  source?: 'builtin' | 'external';
  requiredTools?: readonly { name: string; check_args: readonly string[]; reason: string }[];
  notes?: readonly string[];
  commands: readonly CommandDescriptor[];
}
